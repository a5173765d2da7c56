"""Reports comparing strategies from outcome tables (plots and summaries)."""
