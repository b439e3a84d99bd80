#!/usr/bin/env python3
"""Writes a random-weight llama-architecture GGUF for latency tests of llama.cpp's llama-server.

The weights are random, so the generated text is gibberish, but every matrix product of prefill and decode is
computed for real. Usage: make-model.py OUT.gguf [layers] [width] [ff] [context]. Runs with python3-gguf and numpy.

The vocabulary is sentencepiece-style (tokenizer.ggml.model = llama): three control tokens, the 256 byte-fallback
tokens <0xNN>, then text pieces. The output rows of control and byte tokens are zero and text rows are larger, so the
sampler picks text pieces: a random output layer otherwise samples mostly byte tokens that are not valid UTF-8, and
llama-server then streams no visible deltas. </s> (end of generation) is never likely, so every request generates
its max_tokens.
"""
import string
import sys

import numpy as np
import gguf

out = sys.argv[1]
layers = int(sys.argv[2]) if len(sys.argv) > 2 else 1
width = int(sys.argv[3]) if len(sys.argv) > 3 else 64
ff = int(sys.argv[4]) if len(sys.argv) > 4 else 128
context = int(sys.argv[5]) if len(sys.argv) > 5 else 40960
heads = max(1, width // 32)

tokens, scores, types = [], [], []
def add(piece, score, kind):
    tokens.append(piece.encode("utf-8"))
    scores.append(float(score))
    types.append(kind)

NORMAL, UNKNOWN, CONTROL, BYTE = 1, 2, 3, 6
add("<unk>", 0.0, UNKNOWN)
add("<s>", 0.0, CONTROL)
add("</s>", 0.0, CONTROL)
for b in range(256):
    add("<0x%02X>" % b, 0.0, BYTE)
first_text = len(tokens)
# Single characters with and without the word-start mark, then common English words and letter pairs: enough
# pieces that English text tokenizes to about one token per 3-4 characters, as real vocabularies do.
chars = string.ascii_letters + string.digits + string.punctuation
seen = set()
def text(piece, score):
    if piece not in seen:
        seen.add(piece)
        add(piece, score, NORMAL)
text("\u2581", -1.0)
for c in chars:
    text(c, -2.0)
    text("\u2581" + c, -2.5)
words = ("the of and to in is that it for as with was on be by at this are from or an which not but have has "
         "had were their they can all one more will would there been when its than other into some these also "
         "time two first may only new any most such over after where over what about each out up used request "
         "server token model latency prompt length answer question first second third data system test cache "
         "before under between during through while because very long short").split()
for i, w in enumerate(words):
    text("\u2581" + w, -3.0 + i * 1e-4)
letters = string.ascii_lowercase
for a in letters:
    for b in letters:
        text(a + b, -4.0)
        text("\u2581" + a + b, -4.5)
vocab = len(tokens)

w = gguf.GGUFWriter(out, "llama")
w.add_name("latencylab-random")
w.add_context_length(context)
w.add_embedding_length(width)
w.add_block_count(layers)
w.add_feed_forward_length(ff)
w.add_head_count(heads)
w.add_head_count_kv(heads)
w.add_layer_norm_rms_eps(1e-5)
w.add_rope_dimension_count(width // heads)
w.add_file_type(gguf.LlamaFileType.ALL_F32)
w.add_tokenizer_model("llama")
w.add_token_list(tokens)
w.add_token_scores(scores)
w.add_token_types(types)
w.add_bos_token_id(1)
w.add_eos_token_id(2)
w.add_unk_token_id(0)
w.add_add_bos_token(True)

rng = np.random.default_rng(43)
def mat(rows, cols, scale=None):
    s = scale if scale is not None else 1.0 / np.sqrt(cols)
    return (rng.standard_normal((rows, cols)) * s).astype(np.float32)

w.add_tensor("token_embd.weight", mat(vocab, width, 1.0))
for i in range(layers):
    p = "blk.%d." % i
    w.add_tensor(p + "attn_norm.weight", np.ones(width, dtype=np.float32))
    w.add_tensor(p + "attn_q.weight", mat(width, width))
    w.add_tensor(p + "attn_k.weight", mat(width, width))
    w.add_tensor(p + "attn_v.weight", mat(width, width))
    w.add_tensor(p + "attn_output.weight", mat(width, width))
    w.add_tensor(p + "ffn_norm.weight", np.ones(width, dtype=np.float32))
    w.add_tensor(p + "ffn_gate.weight", mat(ff, width))
    w.add_tensor(p + "ffn_up.weight", mat(ff, width))
    w.add_tensor(p + "ffn_down.weight", mat(width, ff))
w.add_tensor("output_norm.weight", np.ones(width, dtype=np.float32))
output = mat(vocab, width, 3.0 / np.sqrt(width))
output[:first_text, :] = 0.0
w.add_tensor("output.weight", output)

w.write_header_to_file()
w.write_kv_data_to_file()
w.write_tensors_to_file()
w.close()
print("wrote %s: %d layers, width %d, ff %d, vocab %d, context %d" % (out, layers, width, ff, vocab, context))
