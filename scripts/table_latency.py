"""Measure how fast one web table answers while another is flooded and its bots think hard.

Starts ``trixsim serve`` on a free loopback port. Table A: its host and three
``pimc:worlds=256`` bots (the largest setting a web client may ask for), with 20 more
tabs of the host's seat sending valid no-op messages (``preselect: null``) as fast as
the server takes them, while the host plays random legal moves. Table B: one person and
three heuristic bots; the person plays MOVES random legal moves and we time each one,
from sending it to receiving the new state. Prints the median and worst time.

    python scripts/table_latency.py [MOVES]
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

import websockets

FLOODERS = 20


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def new_table(base: str, name: str) -> tuple[str, str]:
    req = urllib.request.Request(f"{base}/api/tables", data=json.dumps({"name": name}).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        d = json.load(r)
    return d["table"], d["token"]


async def state(ws) -> dict:
    while True:
        m = json.loads(await ws.recv())
        if m["type"] == "state":
            return m


async def seat_bots(ws, spec: str) -> dict:
    m = await state(ws)
    for s in (1, 2, 3):
        await ws.send(json.dumps({"type": "bot", "seat": s, "spec": spec}))
        m = await state(ws)
    return m


async def flood(url: str, token: str, stop: asyncio.Event, sent: list[int]) -> None:
    async with websockets.connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        drain = asyncio.create_task(_drain(ws))
        while not stop.is_set():
            await ws.send(json.dumps({"type": "preselect", "card": None}))
            sent[0] += 1
            await asyncio.sleep(0)
        drain.cancel()


async def _drain(ws) -> None:
    async for _ in ws:
        pass


async def busy_host(url: str, token: str, stop: asyncio.Event, rng: random.Random) -> None:
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        m = await seat_bots(ws, "pimc:worlds=256")
        while not stop.is_set() and not m["game"]["over"]:
            if m["game"]["turn"] == 0 and m["game"]["legal"]:
                await ws.send(json.dumps({"type": "act",
                                          "action": rng.choice(m["game"]["legal"])}))
            m = await state(ws)


async def main(moves: int) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen([sys.executable, "-m", "trixsim", "serve", "--port",
                                   str(port), "--forget", "--records", tmp])
        try:
            for _ in range(200):
                try:
                    urllib.request.urlopen(base + "/").close()
                    break
                except OSError:
                    time.sleep(0.1)
            a_id, a_tok = new_table(base, "Ann")
            b_id, b_tok = new_table(base, "Bea")
            rng = random.Random(1)
            stop = asyncio.Event()
            sent = [0]
            ws_a = f"ws://127.0.0.1:{port}/ws/{a_id}"
            tasks = [asyncio.create_task(busy_host(ws_a, a_tok, stop, rng))]
            await asyncio.sleep(1.0)
            tasks += [asyncio.create_task(flood(ws_a, a_tok, stop, sent))
                      for _ in range(FLOODERS)]
            times: list[float] = []
            async with websockets.connect(f"ws://127.0.0.1:{port}/ws/{b_id}") as ws:
                await ws.send(json.dumps({"type": "hello", "token": b_tok}))
                m = await seat_bots(ws, "heuristic")
                while len(times) < moves and not m["game"]["over"]:
                    t0 = time.perf_counter()
                    await ws.send(json.dumps({"type": "act",
                                              "action": rng.choice(m["game"]["legal"])}))
                    m = await state(ws)
                    times.append(time.perf_counter() - t0)
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            server.terminate()
            server.wait()
    times.sort()
    print(f"{len(times)} moves at table B while {FLOODERS} tabs sent {sent[0]} no-op messages "
          f"to table A and its pimc:worlds=256 bots thought: median "
          f"{statistics.median(times) * 1000:.0f} ms, worst {times[-1] * 1000:.0f} ms")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 100))
