"""Dadaocheng tests."""
