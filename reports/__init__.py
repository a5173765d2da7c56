"""Reports comparing strategies from outcome tables (plots and summaries).

Importing the package registers what its folders hold with ``trixsim.folders`` (which
checks a folder before ``--force`` replaces it): a report folder also holds CSV tables,
and a tournament folder holds ``tournament.json``, one run folder per pair
(``pair-NN-…``) and its report.
"""

from trixsim.folders import _COMMON, CONTENTS

CONTENTS["report"] = tuple(dict.fromkeys((*CONTENTS["report"], "*.csv")))
CONTENTS.setdefault("tournament", (*_COMMON, "tournament.json", "report.md", "report",
                                   "pair-*"))
