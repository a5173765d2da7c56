"""Search shared by every game: sampled worlds and perfect-information Monte-Carlo.

- ``trixsim.search.deal``: deal the cards a seat cannot see from constraints its game
  supplies (holders, how many cards each takes, which it may take, which it is known to
  hold), compiled;
- ``trixsim.search.pimc``: the PIMC driver every game's ``pimc`` calls with its own
  world sampler, rollout and utility, compiled.

Each game's constraints live in its package (``trixsim.games.trix.worlds``,
``trixsim.games.trump7.worlds``); Trix's search on the public API (``world_from``,
``hidden_cards``, ``play_out_contract``) is ``trixsim.games.trix.search``.
"""
