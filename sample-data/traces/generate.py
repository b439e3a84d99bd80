#!/usr/bin/env python3
"""Writes the sample traces of this folder: synthetic traffic in the three public trace formats LatencyLab replays.

The numbers are made up here (seeded, so the files are reproducible): a quiet base rate with bursts, prompt lengths
spread over two orders of magnitude, and in the Mooncake file shared leading hash ids (a few system prompts that many
requests start with). Run from the repository root: python3 sample-data/traces/generate.py
"""
import datetime
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
BLOCK = 512  # tokens per Mooncake hash-id block


def arrivals(rng, seconds, base_rps, bursts):
    """Poisson arrivals at base_rps, plus bursts: (start s, length s, extra rps)."""
    out = []
    t = 0.0
    while True:
        rate = base_rps + sum(extra for (s, n, extra) in bursts if s <= t < s + n)
        t += rng.expovariate(rate)
        if t >= seconds:
            return out
        out.append(t)


def lengths(rng):
    """A prompt of 50 to ~6000 tokens (log-uniform) and an answer of 4 to ~400."""
    return int(round(10 ** rng.uniform(1.7, 3.8))), int(round(10 ** rng.uniform(0.6, 2.6)))


def mooncake(rng):
    # 10 minutes at about 0.7 req/s with three bursts; four system prompts of 1 to 4 blocks shared by most requests
    times = arrivals(rng, 600, 0.6, [(120, 20, 3.0), (330, 15, 4.0), (500, 30, 2.0)])
    prefixes = [[0], [1, 2], [3, 4, 5], [6, 7, 8, 9]]
    next_id = 10
    with open(os.path.join(HERE, "mooncake-chat.jsonl"), "w") as f:
        for t in times:
            inp, out = lengths(rng)
            ids = []
            if rng.random() < 0.8:
                ids = list(rng.choice(prefixes))
            own = max(0, -(-inp // BLOCK) - len(ids))
            ids += list(range(next_id, next_id + own))
            next_id += own
            inp = max(inp, len(ids) * BLOCK - BLOCK + 1)
            f.write(json.dumps({"timestamp": int(t * 1000), "input_length": inp, "output_length": out,
                                "hash_ids": ids}) + "\n")


def burstgpt(rng):
    # 5 minutes: ChatGPT conversation and API logs, some GPT-4 rows, some failed rows (0 response tokens)
    times = arrivals(rng, 300, 0.8, [(90, 20, 4.0), (200, 10, 6.0)])
    with open(os.path.join(HERE, "burstgpt-sample.csv"), "w") as f:
        f.write("Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n")
        for t in times:
            inp, out = lengths(rng)
            if rng.random() < 0.03:
                out = 0
            model = "GPT-4" if rng.random() < 0.2 else "ChatGPT"
            kind = "API log" if rng.random() < 0.4 else "Conversation log"
            f.write(f"{int(t)},{model},{inp},{out},{inp + out},{kind}\n")


def azure(rng):
    # 4 minutes of wall-clock timestamps with seven fraction digits, as the Azure files write them
    times = arrivals(rng, 240, 1.0, [(60, 15, 5.0), (170, 10, 3.0)])
    origin = datetime.datetime(2025, 3, 4, 9, 0, 0)
    with open(os.path.join(HERE, "azure-conv.csv"), "w") as f:
        f.write("TIMESTAMP,ContextTokens,GeneratedTokens\n")
        for t in times:
            inp, out = lengths(rng)
            stamp = origin + datetime.timedelta(seconds=t)
            f.write(stamp.strftime("%Y-%m-%d %H:%M:%S.") + f"{stamp.microsecond:06d}0,{inp},{out}\n")


if __name__ == "__main__":
    mooncake(random.Random(47))
    burstgpt(random.Random(48))
    azure(random.Random(49))
