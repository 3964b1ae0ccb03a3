"""Evaluation without a learner: tournaments with rotated seats (:mod:`.evaluate`, behind
``formosa tournament``), their backends (:mod:`.backends`: serial, processes, Ray),
ratings and confidence intervals (:mod:`.ratings`), the solo objective (:mod:`.solo`) and
the tournament's files (:mod:`.report`). Imports no torch: it runs on the core install."""
