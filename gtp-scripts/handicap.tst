# Handicap placement: fixed points as GNU Go and the GTP specification give
# them, free placement, and White to move afterwards.

boardsize 19
clear_board
10 fixed_handicap 2
#? [D4 Q16]

clear_board
20 fixed_handicap 3
#? [D4 Q16 D16]

clear_board
30 fixed_handicap 4
#? [D4 Q16 D16 Q4]

clear_board
40 fixed_handicap 5
#? [D4 Q16 D16 Q4 K10]

clear_board
50 fixed_handicap 6
#? [D4 Q16 D16 Q4 D10 Q10]

clear_board
60 fixed_handicap 7
#? [D4 Q16 D16 Q4 D10 Q10 K10]

clear_board
70 fixed_handicap 8
#? [D4 Q16 D16 Q4 D10 Q10 K4 K16]

clear_board
80 fixed_handicap 9
#? [D4 Q16 D16 Q4 D10 Q10 K4 K16 K10]

90 list_stones black
#? [D4 K4 Q4 D10 K10 Q10 D16 K16 Q16]

# White moves next: a genmove for White is an ordinary move.
100 genmove w
#? [[A-HJ-T][0-9]+|pass|resign]

110 printsgf
#? [.*HA\[9\].*AB\[dp\]\[jp\]\[pp\]\[dj\]\[jj\]\[pj\]\[dd\]\[jd\]\[pd\].*]

boardsize 13
120 fixed_handicap 9
#? [D4 K10 D10 K4 D7 K7 G4 G10 G7]

boardsize 9
130 fixed_handicap 4
#? [C3 G7 C7 G3]

boardsize 9
140 fixed_handicap 5
#? [C3 G7 C7 G3 E5]

boardsize 7
150 fixed_handicap 4
#? [C3 E5 C5 E3]

boardsize 10
160 fixed_handicap 4
#? [C3 H8 C8 H3]

# Free placement chooses the fixed points where there are enough.
boardsize 19
170 place_free_handicap 4
#? [D4 Q16 D16 Q4]

# More stones than fixed points: all distinct, on the board.
boardsize 9
180 place_free_handicap 12
#? [([A-HJ][1-9] ){11}[A-HJ][1-9]]

boardsize 5
190 place_free_handicap 3
#? [[A-E][1-5] [A-E][1-5] [A-E][1-5]]

# set_free_handicap: the controller's points.
boardsize 19
200 set_free_handicap A1 T19 K10
#? []

210 list_stones black
#? [A1 K10 T19]

220 is_legal w K10
#? [0]

# Handicap given as repeated Black moves (some controllers do this).
boardsize 9
play b C3
play b G7
play w E5
230 printsgf
#? [.*HA\[2\].*]
