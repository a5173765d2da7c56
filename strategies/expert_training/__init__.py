"""Training Trix's learned ``expert`` policy: the plug-in ``trixsim train`` trains with.

The generic machinery (the iterations, the fit, the verification on duplicate deals, the
folder, resume and plots) is ``trixsim.train``; what is Trix's and the expert's is here:

- ``trainee.TRAINEE``: the ``trixsim.train.Trainee`` of ``expert`` (its game, models,
  features, weight files and labelling job);
- ``data``: self-play deals labelled by the teacher, and the candidates' features;
- ``search``: ``expert-search``, a prototype search rolled out with the learned policy
  (not bundled: ``trixsim.strategies.expert_training.search:ExpertSearchStrategy``), on
  the same compiled search driver and standing as ``pimc`` (``_search_kernels``).

This package imports nothing itself, so listing the bundled strategies does not load it.
"""
