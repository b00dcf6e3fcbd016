# Superko variants differ where a suicide recreates an earlier position.
#
#   3 . . .
#   2 O O .      White A2 B2 C1 (played with Black to move after them),
#   1 . . O      then Black A1, White passes, Black B1 kills A1-B1 itself.
#
# The result is the position after White's C1, now with White to move.
# positional superko (tromp-taylor): that position occurred: illegal.
# situational (new-zealand, ing): it occurred with Black to move: legal.
# natural-situational (simple-area): it followed a White placement: legal.
# chinese forbids the suicide itself.

boardsize 3
ishi-rules tromp-taylor
clear_board
play w A2
play w B2
play w C1
play b A1
play w pass
10 is_legal b B1
#? [0]

ishi-rules new-zealand
20 is_legal b B1
#? [1]

ishi-rules ing
30 is_legal b B1
#? [1]

ishi-rules simple-area
40 is_legal b B1
#? [1]

ishi-rules chinese
50 is_legal b B1
#? [0]

ishi-rules new-zealand
play b B1
60 list_stones black
#? []

70 captures white
#? [2]

# When the same position also occurred after a Black pass (White to move),
# situational superko forbids it; natural-situational still allows it,
# because that earlier position followed a pass, not a Black placement.
clear_board
play w A2
play w B2
play w C1
play b pass
play w pass
play b A1
play w pass
80 is_legal b B1
#? [0]

ishi-rules simple-area
90 is_legal b B1
#? [1]

ishi-rules tromp-taylor
100 is_legal b B1
#? [0]

# Knobs one at a time: positional ko with suicide allowed is tromp-taylor's.
ishi-rules new-zealand
ishi-rule ko positional
110 is_legal b B1
#? [0]

120 ishi-rules
#? [custom\nko positional\nsuicide allowed\n.*]
