// dynalite (the open-source DynamoDB emulator on Node.js) for the local stack and the tests: Dynalite.java
// runs this file with NODE_PATH at the install of scripts/lib/dynalite.sh. Arguments: --port N [--host H].
//
// dynalite 4.0.0 differs from DynamoDB in two things this project's code relies on; here they answer as
// DynamoDB does, and DynaliteIT tests both:
// - it has no UpdateTimeToLive, and its DescribeTimeToLive always answers DISABLED: the stack enables TTL
//   on the records table (DATALAKE_RETENTION_DAYS). Here a table's TTL setting is kept, per table
//   incarnation, and answered. Nothing is deleted when it expires (DynamoDB deletes within days).
// - it measures a string key in UTF-16 code units, not UTF-8 bytes, and does not measure index keys at
//   all: a 1,025-byte range key of two-byte characters, or a 2,049-byte work_id_index_key, was stored.
//   Here every key of the table and of its global secondary indexes is measured in UTF-8 bytes.
// Tables become ACTIVE on dynalite's next write, not after 500 ms; clients still wait for ACTIVE
// (Dynalite.awaitActive), as DynamoDB asks.
'use strict'

const crc32 = require('buffer-crc32')
const db = require('dynalite/db')
const dynalite = require('dynalite')

const MAX_HASH_KEY_BYTES = 2048
const MAX_RANGE_KEY_BYTES = 1024
const TARGET_PREFIX = 'DynamoDB_20120810.'

function option (name, fallback) {
  const at = process.argv.indexOf('--' + name)
  return at >= 0 && at + 1 < process.argv.length ? process.argv[at + 1] : fallback
}

// ---- key sizes in UTF-8 bytes, table and index keys ----

function keyTooLarge (value, type, isHash) {
  if (type !== 'S' || typeof value !== 'string') return null
  const bytes = Buffer.byteLength(value, 'utf8')
  if (isHash && bytes > MAX_HASH_KEY_BYTES) {
    return db.validationError('One or more parameter values were invalid: ' +
      'Size of hashkey has exceeded the maximum size limit of2048 bytes')
  }
  if (!isHash && bytes > MAX_RANGE_KEY_BYTES) {
    return db.validationError('One or more parameter values were invalid: ' +
      'Aggregated size of all range keys has exceeded the size limit of 1024 bytes')
  }
  return null
}

function tableKeysTooLarge (item, table) {
  return db.traverseKey(table, (attr, type, isHash) =>
    item[attr] == null ? null : keyTooLarge(item[attr][type], type, isHash))
}

function indexKeysTooLarge (item, table) {
  for (const index of table.GlobalSecondaryIndexes || []) {
    for (const element of index.KeySchema) {
      const definition = table.AttributeDefinitions.find(d => d.AttributeName === element.AttributeName)
      const value = item[element.AttributeName]
      if (definition && value != null) {
        const error = keyTooLarge(value[definition.AttributeType], definition.AttributeType, element.KeyType === 'HASH')
        if (error) return error
      }
    }
  }
  return null
}

const validateItem = db.validateItem
db.validateItem = (item, table) => validateItem(item, table) || tableKeysTooLarge(item, table) || indexKeysTooLarge(item, table)

const validateKey = db.validateKey
db.validateKey = (key, table, keySchema) => validateKey(key, table, keySchema) || tableKeysTooLarge(key, table)

const validateKeyPiece = db.validateKeyPiece
db.validateKeyPiece = (key, attr, type, isHash) =>
  validateKeyPiece(key, attr, type, isHash) || keyTooLarge(key[attr][type], type, isHash)

// ---- time to live ----

let store
const create = db.create
db.create = options => {
  store = create(options)
  return store
}

// Table name -> { created: CreationDateTime of the table it was set on, attribute }.
const timeToLive = new Map()

function send (res, status, data) {
  const body = JSON.stringify(data)
  res.statusCode = status
  res.setHeader('x-amz-crc32', crc32.unsigned(body))
  res.setHeader('Content-Type', 'application/x-amz-json-1.0')
  res.setHeader('Content-Length', Buffer.byteLength(body, 'utf8'))
  res.end(body)
}

function fail (res, type, message) {
  send(res, 400, { __type: 'com.amazonaws.dynamodb.v20120810#' + type, message })
}

function currentTimeToLive (name, table) {
  const setting = timeToLive.get(name)
  return setting && setting.created === table.CreationDateTime ? setting.attribute : null
}

function handleTimeToLive (operation, data, res) {
  const name = data && data.TableName
  if (typeof name !== 'string' || name.length < 3) {
    return fail(res, 'ValidationException', 'TableName must be at least 3 characters long')
  }
  store.getTable(name, false, (err, table) => {
    if (err) {
      return err.body ? send(res, err.statusCode || 400, err.body) : fail(res, 'InternalServerError', String(err))
    }
    const attribute = currentTimeToLive(name, table)
    if (operation === 'DescribeTimeToLive') {
      return send(res, 200, {
        TimeToLiveDescription: attribute ? { TimeToLiveStatus: 'ENABLED', AttributeName: attribute } : { TimeToLiveStatus: 'DISABLED' },
      })
    }
    const spec = data.TimeToLiveSpecification
    if (!spec || typeof spec.Enabled !== 'boolean' || typeof spec.AttributeName !== 'string' || !spec.AttributeName) {
      return fail(res, 'ValidationException', 'TimeToLiveSpecification needs Enabled and AttributeName')
    }
    if (spec.Enabled && attribute) {
      return fail(res, 'ValidationException', 'TimeToLive is already enabled')
    }
    if (!spec.Enabled && !attribute) {
      return fail(res, 'ValidationException', 'TimeToLive is already disabled')
    }
    if (spec.Enabled) {
      timeToLive.set(name, { created: table.CreationDateTime, attribute: spec.AttributeName })
    }
    else {
      timeToLive.delete(name)
    }
    send(res, 200, { TimeToLiveSpecification: spec })
  })
}

const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 })
const handler = server.listeners('request')[0]
server.removeAllListeners('request')
server.on('request', (req, res) => {
  const target = req.headers['x-amz-target'] || ''
  const operation = target.startsWith(TARGET_PREFIX) ? target.slice(TARGET_PREFIX.length) : ''
  if (req.method !== 'POST' || (operation !== 'UpdateTimeToLive' && operation !== 'DescribeTimeToLive')) {
    return handler(req, res)
  }
  const chunks = []
  req.on('data', chunk => chunks.push(chunk))
  req.on('end', () => {
    let data
    try {
      data = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}')
    }
    catch {
      return send(res, 400, { __type: 'com.amazon.coral.service#SerializationException' })
    }
    handleTimeToLive(operation, data, res)
  })
})

const host = option('host', '127.0.0.1')
server.listen(Number(option('port', '8000')), host, () => {
  console.log('dynalite listening on http://' + host + ':' + server.address().port)
})

// Ctrl-C and SIGTERM end the process (Dynalite.java's stop, the runner's shutdown).
for (const signal of [ 'SIGINT', 'SIGTERM' ]) process.on(signal, () => process.exit(0))
// So does the end of stdin, the pipe from the JVM that started it: a JVM killed outright (kill -9, a
// test fork's timeout) runs no shutdown hook, and the emulator would otherwise outlive it.
process.stdin.on('end', () => process.exit(0))
process.stdin.resume()
