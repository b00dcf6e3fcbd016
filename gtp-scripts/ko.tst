# Ko: the immediate retake is forbidden under every rule set; after passes
# simple ko (Japanese) allows it, every superko rule does not.
#
#   5 . . . . .
#   4 . . . . .
#   3 . X O . .
#   2 X O . O .      Black takes at C2, White may not retake at B2 at once.
#   1 . X O . .

boardsize 5
ishi-rules japanese
clear_board
play b B3
play b A2
play b B1
play w C3
play w B2
play w D2
play w C1
play b C2
10 captures black
#? [1]

20 is_legal w B2
#? [0]

# After a ko threat and its answer the retake is legal again.
play w E5
play b E4
30 is_legal w B2
#? [1]

# Simple ko: after two passes the retake is legal too.
undo
undo
play w pass
play b pass
40 is_legal w B2
#? [1]

# The same under Chinese rules (positional superko): after two passes the
# retake would repeat the position before Black's capture.
ishi-rules chinese
clear_board
play b B3
play b A2
play b B1
play w C3
play w B2
play w D2
play w C1
play b C2
50 is_legal w B2
#? [0]

play w pass
play b pass
60 is_legal w B2
#? [0]

# After a real exchange elsewhere the position is new: legal.
play w E5
play b E4
70 is_legal w B2
#? [1]

play w B2
80 list_stones black
#? [B1 A2 B3 E4]

# Now Black may not retake at once either.
90 is_legal b C2
#? [0]

# Situational superko (AGA) and natural-situational (simple-area) forbid
# the retake after passes just the same.
ishi-rules aga
clear_board
play b B3
play b A2
play b B1
play w C3
play w B2
play w D2
play w C1
play b C2
play w pass
play b pass
100 is_legal w B2
#? [0]

ishi-rules simple-area
clear_board
play b B3
play b A2
play b B1
play w C3
play w B2
play w D2
play w C1
play b C2
play w pass
play b pass
110 is_legal w B2
#? [0]

# A changed rule set applies to the game already on the board.
ishi-rules japanese
120 is_legal w B2
#? [1]
