"""Reads tc's token files (runtime/format/TokenFile.h) from Python: the
pairs as lists of ids, for the PyTorch references of the tests and the
translation benchmark."""
import struct


def read_pairs(path):
    """The (source ids, target ids) pairs of the token file at `path`
    (versions 1 to 4): the source ends with EOS, the target has neither BOS
    nor EOS."""
    data = open(path, "rb").read()
    if data[:8] != b"TCTOKENS":
        raise ValueError(f"{path}: not a tc token file")
    version, = struct.unpack_from("<I", data, 8)
    count, = struct.unpack_from("<Q", data, 16)
    if version == 4:  # the ids in one block, an index after them
        vocabulary, = struct.unpack_from("<Q", data, 24)
        total, = struct.unpack_from("<Q", data, 40)
        ids_at = 64 + (vocabulary + 7) // 8 * 8
        index_at = ids_at + (4 * total + 7) // 8 * 8
        ids = struct.unpack_from(f"<{total}i", data, ids_at)
        pairs = []
        for i in range(count):
            first, s, t = struct.unpack_from("<QII", data, index_at + 16 * i)
            pairs.append((list(ids[first:first + s]),
                          list(ids[first + s:first + s + t])))
        return pairs
    at = 24
    if version >= 2:
        vocabulary, = struct.unpack_from("<Q", data, 24)
        at = (32 if version == 2 else 40) + vocabulary
    pairs = []
    for _ in range(count):
        s, t = struct.unpack_from("<II", data, at)
        at += 8
        ids = struct.unpack_from(f"<{s + t}i", data, at)
        at += 4 * (s + t)
        pairs.append((list(ids[:s]), list(ids[s:])))
    return pairs


def padded_batch(pairs, pad, bos, eos):
    """PyTorch tensors of `pairs` as tc batches them (runtime/data/Batch.h):
    source ids, decoder inputs (BOS, target) and outputs (target, EOS), each
    row padded with `pad` to the batch's longest."""
    import torch
    S = max(len(s) for s, _ in pairs)
    T = max(len(t) for _, t in pairs) + 1
    src = torch.full((len(pairs), S), pad)
    tgt_in = torch.full((len(pairs), T), pad)
    tgt_out = torch.full((len(pairs), T), pad)
    for r, (s, t) in enumerate(pairs):
        src[r, :len(s)] = torch.tensor(s)
        tgt_in[r, :len(t) + 1] = torch.tensor([bos] + t)
        tgt_out[r, :len(t) + 1] = torch.tensor(t + [eos])
    return src, tgt_in, tgt_out
