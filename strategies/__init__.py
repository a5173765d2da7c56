"""Strategy modules bundled with trixsim (loaded by name, e.g. ``random``, ``heuristic``).

``INDEX`` says where each bundled strategy lives, so that loading one by name imports its
own module only (importing every module would compile or load every game's kernels:
about a fifth of a second at each start). Discovery still scans every module; a test
checks that the scan finds exactly this index.
"""

INDEX: dict[tuple[str | None, str], str] = {
    # (game, name; None: any game) -> module:Class
    (None, "random"): "random_bot:RandomStrategy",
    ("trix", "expert"): "expert:ExpertStrategy",
    ("trix", "expert-policy"): "expert:ExpertPolicy",
    ("trix", "heuristic"): "heuristic:HeuristicStrategy",
    ("trix", "heuristic-declare"): "heuristic:DeclareHeuristic",
    ("trix", "heuristic-early-trix"): "heuristic:EarlyTrixHeuristic",
    ("trix", "heuristic-fixed-order"): "heuristic:FixedOrderHeuristic",
    ("trix", "heuristic-late-trix"): "heuristic:LateTrixHeuristic",
    ("trix", "heuristic-nodeclare"): "heuristic:NoDeclareHeuristic",
    ("trix", "pimc"): "pimc:PimcStrategy",
    ("trump7", "heuristic"): "trump7_heuristic:Trump7Heuristic",
    ("trump7", "pimc"): "trump7_pimc:Trump7Pimc",
    ("trump7-bid", "heuristic"): "trump7_heuristic:Trump7BidHeuristic",
    ("trump7-bid", "pimc"): "trump7_pimc:Trump7BidPimc",
}
