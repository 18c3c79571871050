from math import exp, sqrt


def softmax(xs):
    top = max(xs)
    es = [exp(x - top) for x in xs]
    total = sum(es)
    return [e / total for e in es]


q_decoder = (1, 1)                              # the decoder's question for word six
k_encoder = [(1, 0), (0, 1), (2, 2), (-1, 1)]   # one key per source word, from the encoder

scores = [sum(a * b for a, b in zip(q_decoder, k)) for k in k_encoder]
scaled = [s / sqrt(len(q_decoder)) for s in scores]
weights = softmax(scaled)

for name, row in (("scores", scores), ("scaled", scaled), ("weights", weights)):
    print(f"{name:<8}" + " ".join(f"{x:5.2f}" for x in row))
