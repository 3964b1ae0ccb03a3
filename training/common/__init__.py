"""What several pipelines share: TOML settings with bounds (:mod:`.toml_config`) and the
numpy network format every pipeline exports to (:mod:`.network_export`)."""
