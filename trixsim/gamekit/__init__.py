"""What every compiled game shares below its rules, so that adding a game needs only its
own: the batch state's row layout and named views (``state``), the event buffer the rules
write into (``events``), the read-only observation and the gathering of its fields
(``observation``), bit kernels over card and action masks (``bits``), and the ``Game``
boilerplate that is the same for every game (``game``)."""
