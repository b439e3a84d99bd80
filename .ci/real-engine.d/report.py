#!/usr/bin/env python3
"""Prints, per context length of a sweep run directory, the prompt tokens LatencyLab planned against the tokens the
server counted (usage.prompt_tokens, including the chat template's own tokens), the median client TTFT, llama.cpp's
own prefill time (timings.prompt_ms, stored as server_timings_ms) and the share of TTFT it explains.
Usage: report.py RUN_DIR LABEL"""
import json
import statistics
import sys
from collections import defaultdict

run_dir, label = sys.argv[1], sys.argv[2]
rows = defaultdict(list)
with open(run_dir + "/requests.jsonl", encoding="utf-8") as f:
    for line in f:
        r = json.loads(line)
        if r.get("phase", "measured") != "measured" or r.get("outcome") != "success":
            continue
        rows[r.get("context_tokens", -1)].append(r)
print(f"{label}: planned  counted(server)  diff%   TTFT P50 ms  server prompt_ms  prefill share")
for n in sorted(rows):
    rs = rows[n]
    counted = statistics.median(r.get("input_tokens", -1) for r in rs)
    ttft = statistics.median(r["ttft_ms"] for r in rs if "ttft_ms" in r) if any("ttft_ms" in r for r in rs) else float("nan")
    pm = [r["server_timings_ms"]["prompt_eval"] for r in rs if "prompt_eval" in r.get("server_timings_ms", {})]
    prompt_ms = statistics.median(pm) if pm else float("nan")
    print(f"{label}: {n:7d}  {counted:15.0f}  {100.0 * (counted - n) / n:+6.2f}  {ttft:11.1f}  {prompt_ms:16.1f}"
          f"  {prompt_ms / ttft if ttft == ttft and ttft > 0 else float('nan'):12.1%}")
