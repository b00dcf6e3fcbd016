// Drives ishi the way Sabaki does, through Sabaki's own GTP library:
// attach, sync a game (with an undo path and set_free_handicap), genmove,
// then live analysis stopped by the next command. Every streamed line must
// parse under the formats of GTP-NOTES.md.
//
//   node sabaki.test.js /path/to/ishi
//
// Prints one line per check and closes with "N passed, N failed".

const assert = require('assert')
const {Controller, ControllerStateTracker} = require('@sabaki/gtp')

const enginePath = process.argv[2]
if (!enginePath) {
  console.error('usage: node sabaki.test.js /path/to/ishi')
  process.exit(2)
}

const SIZE = 9
const VERTEX = /^(pass|[A-HJ-Z](?:[1-9]|1[0-9]|2[0-5]))$/i
let passed = 0
let failed = 0

async function check(name, body) {
  try {
    await body()
    passed++
    console.log(`ok   ${name}`)
  } catch (err) {
    failed++
    console.log(`FAIL ${name}: ${err && err.stack ? err.stack : err}`)
  }
}

// One analysis line: candidates `info move V key value ... pv V V ...`,
// then for kata-analyze optionally `ownership` and N*N numbers.
function parseAnalysisLine(line, {floatWinrate, ownership}) {
  const tokens = line.trim().split(/\s+/)
  assert.strictEqual(tokens[0], 'info', `line must start with info: ${line}`)
  const candidates = []
  let i = 0
  let owned = null
  while (i < tokens.length) {
    if (tokens[i] === 'ownership') {
      owned = tokens.slice(i + 1).map(Number)
      break
    }
    assert.strictEqual(tokens[i], 'info', `expected info at token ${i}: ${line}`)
    i++
    const fields = {}
    while (i < tokens.length && tokens[i] !== 'pv') {
      const key = tokens[i]
      const value = tokens[i + 1]
      assert.ok(value !== undefined, `key ${key} without value`)
      fields[key] = value
      i += 2
    }
    assert.strictEqual(tokens[i], 'pv', `pv must close every candidate: ${line}`)
    i++
    const pv = []
    while (i < tokens.length && tokens[i] !== 'info' && tokens[i] !== 'ownership') {
      assert.match(tokens[i], VERTEX, `pv holds only vertices: ${tokens[i]}`)
      pv.push(tokens[i])
      i++
    }
    assert.ok(pv.length >= 1, 'pv has at least the move itself')
    assert.match(fields.move, VERTEX)
    assert.strictEqual(pv[0].toUpperCase(), fields.move.toUpperCase(), 'pv starts with the move')
    assert.ok(Number.isInteger(Number(fields.visits)) && Number(fields.visits) >= 0, 'visits')
    assert.ok(Number.isInteger(Number(fields.order)), 'order')
    const w = Number(fields.winrate)
    if (floatWinrate) {
      assert.ok(fields.winrate.includes('.') || w === 0 || w === 1, `float winrate: ${fields.winrate}`)
      assert.ok(w >= 0 && w <= 1, `winrate in 0..1: ${w}`)
      assert.ok(Number.isFinite(Number(fields.scoreLead)), 'kata-analyze carries scoreLead')
    } else {
      assert.ok(/^\d+$/.test(fields.winrate) && w <= 10000, `integer winrate: ${fields.winrate}`)
    }
    if (fields.prior !== undefined) assert.ok(Number.isFinite(Number(fields.prior)), 'prior')
    if (fields.lcb !== undefined) assert.ok(Number.isFinite(Number(fields.lcb)), 'lcb')
    candidates.push({...fields, pv})
  }
  assert.ok(candidates.length >= 1, 'at least one candidate')
  if (ownership) {
    assert.ok(owned, 'kata-analyze ownership true carries ownership')
    assert.strictEqual(owned.length, SIZE * SIZE, 'ownership has N*N values')
    for (const v of owned) assert.ok(v >= -1 && v <= 1, `ownership in -1..1: ${v}`)
  }
  return candidates
}

// Starts an analysis, lets it stream for `ms`, then sends `name` and
// measures how long the analysis takes to end after that line.
async function analyseThenInterrupt(controller, command, args, ms, options) {
  const lines = []
  let first = null
  const analysis = controller.sendCommand({name: command, args}, ({line}) => {
    if (first === null) first = line
    else if (line.trim() !== '') lines.push(line)
  })
  await new Promise(resolve => setTimeout(resolve, ms))
  const sent = Date.now()
  const next = controller.sendCommand({name: 'name'})
  const response = await analysis
  const stopMs = Date.now() - sent
  const nameResponse = await next
  assert.ok(!response.error, `${command} failed: ${response.content}`)
  assert.strictEqual(first.trim(), '=', `${command} answers '=' on its own line first`)
  assert.ok(!nameResponse.error && nameResponse.content.length > 0, 'next command answered')
  assert.ok(lines.length >= 2, `${command} streamed at least two lines in ${ms} ms`)
  // Every streamed line is one analysis line: nothing else may appear.
  for (const l of lines) parseAnalysisLine(l, options)
  return {lines, stopMs}
}

async function main() {
  const controller = new Controller(enginePath, ['--threads', '1', '--playouts', '400', '--seed', '1'])
  controller.start()
  const tracker = new ControllerStateTracker(controller)
  const sent = []
  controller.on('command-sent', ({command}) => sent.push(command.name))
  const sentDuring = async body => {
    const from = sent.length
    await body()
    return sent.slice(from)
  }

  await check('attach as Sabaki does: four commands at once', async () => {
    const [name, version, protocol, commands] = await Promise.all(
      ['name', 'version', 'protocol_version', 'list_commands'].map(n => controller.sendCommand({name: n}))
    )
    assert.strictEqual(name.content, 'ishi')
    assert.ok(version.content.length > 0)
    assert.strictEqual(protocol.content, '2')
    const list = commands.content.split('\n')
    for (const c of ['analyze', 'kata-analyze', 'lz-analyze', 'set_free_handicap', 'undo', 'genmove_analyze']) {
      assert.ok(list.includes(c), `list_commands has ${c}`)
    }
  })

  const stones = async colour =>
    (await controller.sendCommand({name: 'list_stones', args: [colour]})).content
      .split(/\s+/)
      .filter(s => s)
      .sort()

  const play = (c, v) => ({name: 'play', args: [c, v]})
  const base = [
    {name: 'set_free_handicap', args: ['C3', 'G7']},
    play('W', 'E5'),
    play('B', 'C6'),
    play('W', 'F3')
  ]

  await check('sync a game with set_free_handicap', async () => {
    const names = await sentDuring(() => tracker.sync({komi: 0.5, boardsize: [SIZE, SIZE], history: base}))
    assert.ok(names.includes('set_free_handicap'), `handicap sent as set_free_handicap: ${names}`)
    assert.deepStrictEqual(await stones('black'), ['C3', 'C6', 'G7'])
    assert.deepStrictEqual(await stones('white'), ['E5', 'F3'])
  })

  await check('sync to a shorter line (undo path) and a new branch', async () => {
    const names = await sentDuring(() => tracker.sync({komi: 0.5, boardsize: [SIZE, SIZE], history: base.slice(0, 3)}))
    assert.ok(names.includes('undo') && !names.includes('clear_board'), `synced by undo: ${names}`)
    assert.deepStrictEqual(await stones('white'), ['E5'])
    await tracker.sync({komi: 0.5, boardsize: [SIZE, SIZE], history: [...base.slice(0, 3), play('W', 'D4')]})
    assert.deepStrictEqual(await stones('white'), ['D4', 'E5'])
    assert.deepStrictEqual(await stones('black'), ['C3', 'C6', 'G7'])
  })

  await check('genmove answers a vertex and plays it', async () => {
    const before = (await stones('black')).length
    const r = await tracker.queueCommand({name: 'genmove', args: ['B']})
    assert.ok(!r.error, r.content)
    assert.match(r.content, /^(pass|resign|[A-HJ-Z]\d+)$/i)
    if (/^[A-HJ-Z]\d+$/i.test(r.content)) assert.strictEqual((await stones('black')).length, before + 1)
  })

  const timings = []
  for (const [command, options] of [
    ['lz-analyze', {floatWinrate: false, ownership: false}],
    ['analyze', {floatWinrate: false, ownership: false}],
    ['kata-analyze', {floatWinrate: true, ownership: false}]
  ]) {
    await check(`${command} W 10 streams well-formed lines and stops on the next command`, async () => {
      const {lines, stopMs} = await analyseThenInterrupt(controller, command, ['W', '10'], 700, options)
      timings.push(`${command}: ${lines.length} lines, stopped ${stopMs} ms after the next line`)
      assert.ok(stopMs < 100, `stopped within 100 ms (took ${stopMs} ms)`)
    })
  }

  await check('kata-analyze B interval 10 ownership true', async () => {
    const {stopMs} = await analyseThenInterrupt(controller, 'kata-analyze', ['B', 'interval', '10', 'ownership', 'true'], 700, {
      floatWinrate: true,
      ownership: true
    })
    timings.push(`kata-analyze ownership: stopped ${stopMs} ms after the next line`)
    assert.ok(stopMs < 100, `stopped within 100 ms (took ${stopMs} ms)`)
  })

  for (const [command, colour, options] of [
    ['lz-genmove_analyze', 'W', {floatWinrate: false, ownership: false}],
    ['genmove_analyze', 'B', {floatWinrate: false, ownership: false}],
    ['kata-genmove_analyze', 'W', {floatWinrate: true, ownership: false}]
  ]) {
    await check(`${command} ${colour} 10 streams, then answers play <vertex> and plays it`, async () => {
      const colourName = colour === 'B' ? 'black' : 'white'
      const before = (await stones(colourName)).length
      const lines = []
      const r = await controller.sendCommand({name: command, args: [colour, '10']}, ({line}) => lines.push(line))
      assert.ok(!r.error, r.content)
      assert.strictEqual(lines[0].trim(), '=', `${command} answers '=' on its own line first`)
      const body = lines.slice(1).filter(l => l.trim() !== '')
      const last = body[body.length - 1]
      const played = last.match(/^play (pass|resign|[A-HJ-Z]\d+)$/i)
      assert.ok(played, `last line is play: ${last}`)
      assert.ok(body.length >= 2, 'at least one analysis line before the move')
      for (const l of body.slice(0, -1)) parseAnalysisLine(l, options)
      if (/^[A-HJ-Z]\d+$/i.test(played[1])) {
        assert.strictEqual((await stones(colourName)).length, before + 1, 'the move is played')
      }
    })
  }

  await check('the engine is still in step after analysis', async () => {
    const r = await controller.sendCommand({name: 'showboard'})
    assert.ok(!r.error)
  })

  await controller.stop()
  for (const t of timings) console.log(`info ${t}`)
  console.log(`${passed} passed, ${failed} failed`)
  process.exit(failed === 0 ? 0 : 1)
}

main().catch(err => {
  console.log(`FAIL harness: ${err && err.stack ? err.stack : err}`)
  console.log(`${passed} passed, ${failed + 1} failed`)
  process.exit(1)
})
