# Scoring simple positions under several rule sets.
#
#   5 . X O . .
#   4 . X O . .
#   3 . X O . .     Black owns columns A-B (10 points of area, 5 of
#   2 . X O . .     territory), White columns C-E (15 and 10).
#   1 . X O . .

boardsize 5
ishi-rules chinese
komi 0.5
play b B1
play w C1
play b B2
play w C2
play b B3
play w C3
play b B4
play w C4
play b B5
play w C5
10 final_score
#? [W\+5\.5]

ishi-rules japanese
komi 0.5
20 final_score
#? [W\+5\.5]

ishi-rules stone-scoring
30 final_score
#? [0]

ishi-rules group-tax
40 final_score
#? [W\+5]

ishi-rules tromp-taylor
komi 0.5
50 final_score
#? [W\+5\.5]

# Komi in favour of Black.
komi -6
60 final_score
#? [B\+1]

# Ing: Black wins ties.
ishi-rules ing
komi -5
70 final_score
#? [B\+0]

# A white stone captured inside Black's side: a prisoner under territory
# scoring, nothing under area scoring.
ishi-rules japanese
komi 0.5
play w A3
play b A2
play b A4
80 captures black
#? [1]

90 final_score
#? [W\+6\.5]

ishi-rules chinese
komi 0.5
100 final_score
#? [W\+5\.5]

110 final_status_list alive
#? [B1 A2 B2 B3 A4 B4 B5\nC1 C2 C3 C4 C5]

# A lone black stone at E3 inside White's side. Tromp-Taylor counts the
# board as it stands: the stone is Black's and the empty region touching
# it is nobody's, so Black wins.
boardsize 5
ishi-rules tromp-taylor
komi 0.5
play b B1
play w C1
play b B2
play w C2
play b B3
play w C3
play b B4
play w C4
play b B5
play w C5
play b E3
120 final_score
#? [B\+5\.5]

# Chinese rules remove the dead stone first.
ishi-rules chinese
komi 0.5
130 final_status_list dead
#? [E3]

140 final_score
#? [W\+5\.5]

# Handicap compensation under area scoring: Chinese gives White N points,
# AGA N-1, Japanese (territory) none.
boardsize 9
ishi-rules chinese
komi 0
set_free_handicap C3 G7
150 final_score
#? [B\+79]

ishi-rules aga
komi 0
160 final_score
#? [B\+80]

ishi-rules japanese
komi 0
170 final_score
#? [B\+79]
