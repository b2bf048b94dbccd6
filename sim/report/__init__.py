"""Balance reports: per-arm metrics, paired comparisons with the baseline, figures, and
index.html / report.md / summary.{parquet,csv} (docs/report.md): ``build.write_report``
writes one; ``dataset.open_dataset`` opens a dataset alone (``sim.api.load``) without
loading matplotlib, which only ``figures`` imports."""
