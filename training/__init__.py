"""Training and evaluation pipelines (the only place importing torch / stable-baselines3).

Self-play training with MaskablePPO arrives with issue #3; this package is a
placeholder for it today and imports nothing heavy.
"""
