# Protocol behaviour: identification, command list, board setup, ids,
# answers of the informational commands. Run with gogui-regress or
# `cargo test --test gtp_scripts`.

10 protocol_version
#? [2]

20 name
#? [ishi]

30 version
#? [[0-9]+\.[0-9]+\.[0-9]+.*]

# known_command answers exactly true or false (gomill relies on it).
40 known_command genmove
#? [true]

50 known_command final_score
#? [true]

60 known_command frobnicate
#? [false]

70 known_command GENMOVE
#? [false]

# list_commands: one name per line; gogui-twogtp needs it, GoGui needs
# gogui-interrupt in it to send "# interrupt".
80 list_commands
#? [protocol_version\n.*\ngogui-interrupt.*]

90 list_commands
#? [.*^kgs-genmove_cleanup$.*^final_status_list$.*^loadsgf$.*]

boardsize 9
clear_board
komi 7.5

# Empty board on 9x9: every point legal for both colours.
100 all_legal black
#? [(\S+ ){80}\S+]

110 list_stones black
#? []

120 captures white
#? [0]

# Colours and vertices in any case.
play B d4
play white E5
130 list_stones b
#? [D4]

140 list_stones WHITE
#? [E5]

# Consecutive moves of one colour are fine.
play w e6
150 list_stones w
#? [E5 E6]

# Two passes do not end the session: play and genmove keep working.
play b pass
play w pass
play b c3
160 list_stones black
#? [C3 D4]

170 genmove w
#? [[A-HJ][1-9]|pass|resign]

180 undo
#? []

190 list_stones white
#? [E5 E6]

# Comments and tabs are stripped.
200	list_stones	white	# a comment
#? [E5 E6]

# reg_genmove does not change the board.
210 reg_genmove b
#? [[A-HJ][1-9]|pass]

220 list_stones black
#? [C3 D4]

230 cputime
#? [[0-9]+(\.[0-9]+)?]

# Clock commands are accepted.
240 time_settings 300 30 5
#? []

250 time_left black 280 0
#? []

260 kgs-time_settings byoyomi 600 30 5
#? []

270 kgs-time_settings canadian 600 300 25
#? []

280 kgs-time_settings absolute 900
#? []

290 kgs-time_settings none
#? []

300 kgs-game_over
#? []

# showboard: the board with coordinates, no empty line inside.
310 showboard
#? [.*A B C D E F G H J.*9 \. \. \. \. \. \. \. \. \.  9.*]

# printsgf: a record of the game so far.
320 printsgf
#? [\(;FF\[4\]GM\[1\].*SZ\[9\].*KM\[7\.5\].*;B\[df\] ;W\[ee\] ;W\[ed\] ;B\[\] ;W\[\] ;B\[cg\]\)]

# Board sizes up to 25.
boardsize 25
330 is_legal b Z25
#? [1]

play w Y24
340 is_legal b Y24
#? [0]

boardsize 2
350 all_legal w
#? [A1 B1 A2 B2]
