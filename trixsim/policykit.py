"""What every game's compiled policies share: the calling convention and the random keys.

A compiled policy is a numba function with ``POLICY_SIG``: ``(row, legal, hand, subkey,
params, n_params) -> action``, where ``row`` is the address of the game's state row and
``params`` that of the strategy's float64 parameters (``param_vector``). The random key
of a decision is ``counter_key(game, counter, subkey)``: a hash of the run's strategy
subkey (``strategy_subkey``, a one-way function of the seed), the game index and a public
counter the game chooses (Trix: its ply, tagged on the K♥ question; trump7: its ply).
"""

from __future__ import annotations

import functools
import hashlib
import warnings

import numpy as np
from numba import carray, njit, types
from numba.core.errors import NumbaExperimentalFeatureWarning
from numba.extending import intrinsic

from trixsim import rng
from trixsim.jitcache import guard, sources
from trixsim.rng import STREAM_STRATEGY, hash4

guard(__file__, sources(rng), STREAM_STRATEGY)

# numba calls function pointers "first-class functions" and flags them experimental; the
# loops rely only on calling them, which is stable
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)

POLICY_SIG = types.int64(types.int64, types.int64, types.int64, types.int64, types.int64,
                         types.int64)
"""(row, legal, hand, subkey, params, n_params) -> action; see the module doc."""


def _as_pointer(context, builder, signature, args):  # type: ignore[no-untyped-def]
    """The code of the pointer intrinsics below: the int64 address as the pointer type."""
    return builder.inttoptr(args[0], context.get_value_type(signature.return_type))


@intrinsic
def int64_ptr(typingctx, addr):  # type: ignore[no-untyped-def]
    """An int64 address as a pointer (for ``carray``)."""
    return types.CPointer(types.int64)(types.int64), _as_pointer


@intrinsic
def int32_ptr(typingctx, addr):  # type: ignore[no-untyped-def]
    """An int32 address as a pointer (for ``carray``)."""
    return types.CPointer(types.int32)(types.int64), _as_pointer


@intrinsic
def float64_ptr(typingctx, addr):  # type: ignore[no-untyped-def]
    """A float64 address as a pointer (for ``carray``)."""
    return types.CPointer(types.float64)(types.int64), _as_pointer


@njit(cache=True, inline="always")
def unowned(S: np.ndarray) -> np.ndarray:
    """A 2-D int64 array (a batch's state rows) as a view that owns no memory, for a loop
    that keeps ``S`` alive: numba then counts no references to it around each call that
    takes it (an atomic add and subtract per rules step, which its pruning leaves in)."""
    return carray(int64_ptr(S.ctypes.data), S.shape)


@njit(cache=True, inline="always")
def param_vector(params: int, n: int) -> np.ndarray:
    """The ``n`` float64 parameters at address ``params`` (a view)."""
    return carray(float64_ptr(params), (n,))


@njit(cache=True, inline="always")
def counter_key(game: int, counter: int, subkey: int) -> int:
    """The random key of the decision at public ``counter`` of game ``game``."""
    return np.int64(hash4(subkey, STREAM_STRATEGY, game, counter))


def policy_answers(policy: object, rows: np.ndarray, legal: np.ndarray, hands: np.ndarray,
                   subkey: int, params: np.ndarray) -> np.ndarray:
    """A compiled policy's answer in each state row (``legal``: the mask and ``hands``: the
    hand it is handed, per row), as a whole-game loop asks it: for checks. The policy
    travels in a tuple, so numba types it as a function pointer (passed alone it would be
    compiled into this kernel's cached code, which does not notice when its source
    changes)."""
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    out = np.empty(rows.shape[0], dtype=np.int64)
    _answers((policy,), rows, np.ascontiguousarray(legal, dtype=np.int64),
             np.ascontiguousarray(hands, dtype=np.int64), subkey,
             np.ascontiguousarray(params, dtype=np.float64), out)
    return out


@njit(cache=True)
def _answers(policies, rows: np.ndarray, legal: np.ndarray, hands: np.ndarray,  # type: ignore[no-untyped-def]
             subkey: int, params: np.ndarray, out: np.ndarray) -> None:
    for g in range(rows.shape[0]):
        out[g] = policies[0](np.int64(rows.ctypes.data) + 8 * g * rows.shape[1], legal[g],
                             hands[g], subkey, np.int64(params.ctypes.data), params.shape[0])


@functools.lru_cache(maxsize=64)
def strategy_subkey(seed: int) -> int:
    """A one-way function of the run seed that keys the strategies' random draws.

    The draws' mixer can be inverted, so keying them with the seed itself would let a bot
    recover the seed from ``key`` and recompute every deal; a cryptographic hash cannot
    be inverted. (A bot can still guess a small seed by trying seeds until its own hand
    matches: use a random seed when untrusted bots play.)
    """
    digest = hashlib.blake2b(int(seed).to_bytes(8, "little", signed=False), digest_size=8,
                             person=b"trixsim-strat").digest()
    return int.from_bytes(digest, "little") & (2**63 - 1)


__all__ = ["POLICY_SIG", "counter_key", "float64_ptr", "int64_ptr", "param_vector",
           "policy_answers", "strategy_subkey"]
