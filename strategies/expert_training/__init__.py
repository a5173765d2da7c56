"""Training Trix's learned policy (``expert-policy``, which ``expert`` searches with): the
plug-in ``trixsim train`` trains with.

The generic machinery (the iterations, the fit, the verification on duplicate deals, the
folder, resume and plots) is ``trixsim.train``; what is Trix's and the expert's is here:

- ``trainee.TRAINEE``: the ``trixsim.train.Trainee`` of ``expert-policy`` (its game,
  models, features, weight files and labelling job);
- ``data``: self-play deals labelled by the teacher, and the candidates' features.

This package imports nothing itself, so listing the bundled strategies does not load it.
"""
