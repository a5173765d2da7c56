"""Reports comparing strategies from outcome tables (plots and summaries).

What report and tournament folders hold (checked before ``--force`` replaces one) is
listed with every other folder kind in ``trixsim.folders``.
"""
