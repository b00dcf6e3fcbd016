# Suicide: a lone stone may never take its own last liberty; a group of
# two or more may kill itself where suicide is allowed (new-zealand, ing,
# tromp-taylor, simple-area); a move that captures is never suicide.

boardsize 3
ishi-rules chinese
clear_board
play w B1
play w A2
10 is_legal b A1
#? [0]

ishi-rules new-zealand
20 is_legal b A1
#? [0]

ishi-rules tromp-taylor
30 is_legal b A1
#? [0]

# Two-stone suicide (the result is a new position, so no superko issue).
#   3 . . O
#   2 O O .
#   1 X . O
ishi-rules chinese
clear_board
play w A2
play w B2
play w C1
play b A1
play w C3
40 is_legal b B1
#? [0]

ishi-rules japanese
50 is_legal b B1
#? [0]

ishi-rules tromp-taylor
60 is_legal b B1
#? [1]

ishi-rules ing
70 is_legal b B1
#? [1]

ishi-rules new-zealand
play b B1
80 list_stones black
#? []

90 list_stones white
#? [C1 A2 B2 C3]

100 captures white
#? [2]

# Capture comes first: B1 has no liberty of its own but takes A1.
#   2 X O .
#   1 O . O
ishi-rules chinese
clear_board
play w A1
play b A2
play w C1
play w B2
110 is_legal b B1
#? [1]

play b B1
120 list_stones white
#? [C1 B2]

130 captures black
#? [1]

# White's retake at A1 would take B1 back at once: a ko, not legal now.
140 all_legal white
#? [C2 A3 B3 C3]
