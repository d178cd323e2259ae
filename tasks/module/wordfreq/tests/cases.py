"""Held-out cases and timing inputs for the wordfreq task."""

import random

_VOCAB_TEXT = ("the of and to in is it that was he for on are as with his they at be this from "
         "have or by one had not but what all were when we there can an your which their "
         "said if do will each about how up out them then she many some so these would other "
         "into has more her two like him see time could no make than first been its who now "
         "people my made over did down only way find use may water long little very after "
         "words called just where most know get through back much go good new write our me "
         "man too any day same right look think also around another came come work three "
         "don't it's i'm o'clock rock'n'roll")
VOCAB = _VOCAB_TEXT.split()


def _text(seed, words, vocab=None):
    vocab = vocab or len(VOCAB)
    rng = random.Random(seed)
    out = []
    for _ in range(words):
        w = VOCAB[min(int(rng.paretovariate(1.2)) - 1, vocab - 1)] if rng.random() < 0.7 \
            else VOCAB[rng.randrange(vocab)]
        if rng.random() < 0.1:
            w = w.capitalize()
        sep = rng.choice([" ", " ", " ", ", ", ". ", "\n", " -- ", "; ", " (", ") ", " 42 "])
        out.append(w + sep)
    return "".join(out)


def cases():
    out = [
        {"id": "simple", "covers": ["ranking", "top-n"], "call": "top_words",
         "args": ["b a b c b a", 2]},
        {"id": "ties", "covers": ["ties"], "call": "top_words",
         "args": ["pear apple fig apple pear fig kiwi", 10]},
        {"id": "case", "covers": ["case-folding"], "call": "top_words",
         "args": ["The the THE tHe cat Cat", 5]},
        {"id": "apostrophes", "covers": ["apostrophes"], "call": "top_words",
         "args": ["don't stop; it's 5 o'clock, don't-stop 'quoted' x2y", 20]},
        {"id": "stop-tuple", "covers": ["stopwords"], "call": "top_words",
         "args": ["a the a cat the a dog"], "kwargs": {"stopwords": ("the", "a")}},
        {"id": "stop-list", "covers": ["stopwords"], "call": "top_words",
         "args": ["a the a cat the a dog", 3, ["the"]]},
        {"id": "stop-set", "covers": ["stopwords"], "call": "top_words",
         "args": ["x y z x"], "kwargs": {"stopwords": {"x", "q"}, "n": 1}},
        {"id": "n-large", "covers": ["top-n"], "call": "top_words", "args": ["one two two", 99]},
        {"id": "n-zero", "covers": ["n-zero"], "call": "top_words", "args": ["one two two", 0]},
        {"id": "empty", "covers": ["empty"], "call": "top_words", "args": [""]},
        {"id": "no-words", "covers": ["empty"], "call": "top_words", "args": ["123 -- 456 !!"]},
        {"id": "bytes", "covers": ["not-str"], "call": "top_words", "args": [b"abc"]},
        {"id": "none", "covers": ["not-str"], "call": "top_words", "args": [None, 3]},
        {"id": "negative", "covers": ["negative-n"], "call": "top_words", "args": ["a b", -1]},
    ]
    for k in range(16):
        out.append({"id": f"random-{k}", "covers": ["ranking", "ties", "case-folding"],
                    "call": "top_words", "args": [_text(k, 50 + 40 * k), 5 + k]})
    for k in range(4):
        out.append({"id": f"random-stop-{k}", "covers": ["stopwords"], "call": "top_words",
                    "args": [_text(100 + k, 300), 8, list(VOCAB[: 3 * k])]})
    return out


def timing_inputs():
    def make(words):
        def one(seed):
            return {"call": "top_words", "args": [_text(seed, words), 10, ("the", "a", "an")]}
        return one

    return [
        {"id": "words500", "size": 500, "make": make(500)},
        {"id": "words3000", "size": 3000, "make": make(3000)},
    ]
