# loadsgf and printsgf on hand-written records in tests/data/sgf/
# (paths are relative to this directory, as gogui-regress runs the engine
# here).

# A 9x9 Japanese game with a capture, passes as W[tt] and B[], and a
# variation after the main line's move 15 that must be ignored.
10 loadsgf ../tests/data/sgf/nine_japanese.sgf
#? [white]

20 list_stones black
#? [B1 A2 E3 G3 E4 E5 D6 D7]

30 list_stones white
#? [D3 D4 C5 D5 C6 C7]

40 captures black
#? [1]

50 ishi-rules
#? [japanese\n.*\nkomi 6\.5\n.*]

# With a move number: the position before that move.
60 loadsgf ../tests/data/sgf/nine_japanese.sgf 15
#? [black]

70 list_stones white
#? [A1 D3 D4 C5 D5 C6 C7]

80 loadsgf ../tests/data/sgf/nine_japanese.sgf 1
#? [black]

90 list_stones black
#? []

# 19x19, three handicap stones as setup, White to move first.
100 loadsgf ../tests/data/sgf/handicap_19.sgf
#? [white]

110 list_stones black
#? [P3 D4 D16 Q16]

120 list_stones white
#? [R4]

130 printsgf
#? [.*RU\[Chinese\]KM\[0\.5\]HA\[3\].*]

# New Zealand rules, compressed point lists, a two-stone capture and
# setup in the middle of the game.
140 loadsgf ../tests/data/sgf/nz_setup.sgf
#? [white]

150 list_stones black
#? [K4 A10 B11 B12 A13 B13]

160 list_stones white
#? [D10 C11 C12]

170 ishi-rules
#? [new-zealand\n.*komi 7\n.*]

# 21x21: tt is a point there, not a pass.
180 loadsgf ../tests/data/sgf/big_21.sgf
#? [white]

190 list_stones black
#? [U2 A21]

# printsgf and loadsgf agree: write the game, read it back.
boardsize 9
ishi-rules new-zealand
komi 3
set_free_handicap C3 G7
play w E5
play b pass
play w D4
200 printsgf /tmp/ishi-regress-round-trip.sgf
#? []

clear_board
210 loadsgf /tmp/ishi-regress-round-trip.sgf
#? [black]

220 list_stones black
#? [C3 G7]

230 list_stones white
#? [D4 E5]

240 ishi-rules
#? [new-zealand\n.*komi 3\n.*]

250 printsgf
#? [.*HA\[2\].*AB\[cg\]\[gc\]PL\[W\]\n;W\[ee\] ;B\[\] ;W\[df\]\)]
