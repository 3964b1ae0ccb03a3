"""Formosa Tea tests."""
