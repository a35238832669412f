"""Probes a DynamoDB emulator with this project's call set and the limits it relies on; one line per check.

usage: .venv/bin/python scripts/lib/dynamodb_probe.py http://127.0.0.1:PORT

The comparison of docs/DESIGN.md ("Choosing the DynamoDB emulator") ran this against dynalite (as published
and through emulators' dynalite.js) and moto's DynamoDB (moto_server). The expressions are the ingester's,
the latest table's, the per-object items' and the shard map's; the limits are DynamoDB's. The last line is
a rough throughput: BatchWriteItem of 25 and 101-item Queries, one client, one thread.
"""
import sys, time, json
import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

endpoint = sys.argv[1]
c = boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1",
                 aws_access_key_id="datalakelocal", aws_secret_access_key="datalakelocal",
                 config=Config(retries={"max_attempts": 1}))
results = []


def check(name, fn):
    try:
        ok, detail = fn()
    except ClientError as e:
        ok, detail = False, "unexpected " + e.response["Error"]["Code"] + ": " + e.response["Error"].get("Message", "")
    except Exception as e:
        ok, detail = False, "crash " + repr(e)[:200]
    results.append((name, ok, detail))
    print(("OK   " if ok else "FAIL ") + name + " | " + str(detail)[:220], flush=True)


def error(fn, code, contains=None):
    try:
        fn()
    except ClientError as e:
        got = e.response["Error"]["Code"]
        msg = e.response["Error"].get("Message", "")
        if got == code and (contains is None or contains.lower() in msg.lower()):
            return True, got + ": " + msg
        return False, "got " + got + ": " + msg
    return False, "no error"


T = "probe-records"
try:
    c.delete_table(TableName=T)
    time.sleep(1)
except ClientError:
    pass


def create():
    c.create_table(TableName=T, BillingMode="PAY_PER_REQUEST",
                   AttributeDefinitions=[{"AttributeName": n, "AttributeType": "S"} for n in
                                         ("time_index_key", "range_key", "work_id_index_key")],
                   KeySchema=[{"AttributeName": "time_index_key", "KeyType": "HASH"},
                              {"AttributeName": "range_key", "KeyType": "RANGE"}],
                   GlobalSecondaryIndexes=[{"IndexName": "work-id-index",
                                            "KeySchema": [{"AttributeName": "work_id_index_key", "KeyType": "HASH"},
                                                          {"AttributeName": "range_key", "KeyType": "RANGE"}],
                                            "Projection": {"ProjectionType": "ALL"}}],
                   SSESpecification={"Enabled": True})
    c.get_waiter("table_exists").wait(TableName=T, WaiterConfig={"Delay": 1})
    d = c.describe_table(TableName=T)["Table"]
    return d["TableStatus"] == "ACTIVE" and d["GlobalSecondaryIndexes"][0]["IndexName"] == "work-id-index", d["TableStatus"]


check("CreateTable+GSI, DescribeTable ACTIVE", create)


def ttl():
    c.update_time_to_live(TableName=T, TimeToLiveSpecification={"Enabled": True, "AttributeName": "expires_at"})
    d = c.describe_time_to_live(TableName=T)["TimeToLiveDescription"]
    return d.get("AttributeName") == "expires_at" and d["TimeToLiveStatus"] in ("ENABLED", "ENABLING"), d


check("UpdateTimeToLive/DescribeTimeToLive", ttl)


def prov():
    name = "probe-prov"
    c.create_table(TableName=name, BillingMode="PROVISIONED",
                   ProvisionedThroughput={"ReadCapacityUnits": 7, "WriteCapacityUnits": 9},
                   AttributeDefinitions=[{"AttributeName": "k", "AttributeType": "S"}],
                   KeySchema=[{"AttributeName": "k", "KeyType": "HASH"}])
    c.get_waiter("table_exists").wait(TableName=name, WaiterConfig={"Delay": 1})
    d = c.describe_table(TableName=name)["Table"]
    p = d["ProvisionedThroughput"]
    return p["ReadCapacityUnits"] == 7 and p["WriteCapacityUnits"] == 9, p


check("CreateTable PROVISIONED capacities", prov)

S = lambda v: {"S": v}
N = lambda v: {"N": str(v)}
rec = lambda h, r, **kw: dict({"time_index_key": S(h), "range_key": S(r)}, **kw)

LATEST_COND = "attribute_not_exists(#key) OR #metadata.#start < :start"


def latest_put(start):
    c.put_item(TableName=T, Item=rec("L", "w", metadata={"M": {"start": N(start), "id": S("i")}}, url=S("u"), create_time=N(1)),
               ConditionExpression=LATEST_COND,
               ExpressionAttributeNames={"#key": "time_index_key", "#metadata": "metadata", "#start": "start"},
               ExpressionAttributeValues={":start": N(start)})


def latest():
    latest_put(100)
    latest_put(200)
    ok, d = error(lambda: latest_put(150), "ConditionalCheckFailedException")
    return ok, d


check("PutItem attribute_not_exists OR nested < (latest)", latest)


def unchanged():
    names = {"#url": "url", "#create_time": "create_time", "#metadata": "metadata", "#id": "id"}
    c.delete_item(TableName=T, Key={"time_index_key": S("L"), "range_key": S("x")},
                  ConditionExpression="attribute_not_exists(#url) OR #url = :url", ExpressionAttributeNames={"#url": "url"},
                  ExpressionAttributeValues={":url": S("u")})
    ok, d = error(lambda: c.delete_item(TableName=T, Key={"time_index_key": S("L"), "range_key": S("w")},
                                        ConditionExpression="#url = :url AND #create_time = :create_time AND #metadata.#id = :id",
                                        ExpressionAttributeNames=names,
                                        ExpressionAttributeValues={":url": S("u"), ":create_time": N(1), ":id": S("other")}),
                  "ConditionalCheckFailedException")
    c.delete_item(TableName=T, Key={"time_index_key": S("L"), "range_key": S("w")},
                  ConditionExpression="#url = :url AND #create_time = :create_time AND #metadata.#id = :id",
                  ExpressionAttributeNames=names, ExpressionAttributeValues={":url": S("u"), ":create_time": N(1), ":id": S("i")})
    gone = "Item" not in c.get_item(TableName=T, Key={"time_index_key": S("L"), "range_key": S("w")}, ConsistentRead=True)
    return ok and gone, d


check("DeleteItem #url = AND #ct = AND #metadata.#id = (latest upkeep)", unchanged)


def commit(seen, commit_id, keys, stale):
    """The per-object commit: the whole entry over the item read, on its still being that one (or none)."""
    names = {"#a0": "record_keys", "#a1": "stale_keys", "#commit": "commit", "#r0": "etag", "#r1": "sequencer"}
    values = {":v0": {"L": [S(k) for k in keys]}, ":v1": {"L": [S(k) for k in stale]}, ":c": S(commit_id)}
    if seen is not None:
        values[":seen"] = S(seen)
    return c.update_item(TableName=T, Key={"time_index_key": S("O"), "range_key": S("s3://b/k")},
                         UpdateExpression="SET #a0 = :v0, #a1 = :v1, #commit = :c REMOVE #r0, #r1",
                         ConditionExpression="attribute_not_exists(#commit)" if seen is None else "#commit = :seen",
                         ExpressionAttributeNames=names, ExpressionAttributeValues=values)


def object_commit():
    commit(None, "c1", ["a", "b"], [])
    read = c.get_item(TableName=T, Key={"time_index_key": S("O"), "range_key": S("s3://b/k")}, ConsistentRead=True)["Item"]
    commit(read["commit"]["S"], "c2", ["c"], ["a", "b"])
    item = c.get_item(TableName=T, Key={"time_index_key": S("O"), "range_key": S("s3://b/k")}, ConsistentRead=True)["Item"]
    stale_ok = item.get("stale_keys") == {"L": [S("a"), S("b")]} and item.get("commit") == S("c2")
    overtaken, d = error(lambda: commit("c1", "c3", ["z"], []), "ConditionalCheckFailedException")
    taken, _ = error(lambda: commit(None, "c4", ["z"], []), "ConditionalCheckFailedException")
    return stale_ok and overtaken and taken, {"stale": item.get("stale_keys"), "overtaken": d}


check("GetItem consistent, UpdateItem SET REMOVE, cond commit = or attribute_not_exists (object commit)", object_commit)


def clear_stale():
    c.update_item(TableName=T, Key={"time_index_key": S("O"), "range_key": S("s3://b/k")}, UpdateExpression="SET #c = :c",
                  ExpressionAttributeNames={"#c": "commit"}, ExpressionAttributeValues={":c": S("x1")})
    ok, d = error(lambda: c.update_item(TableName=T, Key={"time_index_key": S("O"), "range_key": S("s3://b/k")},
                                        UpdateExpression="REMOVE #stale", ConditionExpression="#commit = :commit",
                                        ExpressionAttributeNames={"#stale": "stale_keys", "#commit": "commit"},
                                        ExpressionAttributeValues={":commit": S("x2")}), "ConditionalCheckFailedException")
    c.update_item(TableName=T, Key={"time_index_key": S("O"), "range_key": S("s3://b/k")},
                  UpdateExpression="REMOVE #stale", ConditionExpression="#commit = :commit",
                  ExpressionAttributeNames={"#stale": "stale_keys", "#commit": "commit"}, ExpressionAttributeValues={":commit": S("x1")})
    item = c.get_item(TableName=T, Key={"time_index_key": S("O"), "range_key": S("s3://b/k")}, ConsistentRead=True)["Item"]
    return ok and "stale_keys" not in item, d


check("UpdateItem REMOVE cond #commit = (clear stale)", clear_stale)


def shard_map():
    key = {"time_index_key": S("M"), "range_key": S("shards")}
    put = lambda rev, cond, vals: c.put_item(TableName=T, Item=dict(key, rev=N(rev)), ConditionExpression=cond,
                                              ExpressionAttributeNames={"#k": "time_index_key"} if "#k" in cond else {"#rev": "rev"},
                                              **({"ExpressionAttributeValues": vals} if vals else {}))
    put(1, "attribute_not_exists(#k)", None)
    ok1, d1 = error(lambda: put(1, "attribute_not_exists(#k)", None), "ConditionalCheckFailedException")
    put(2, "#rev = :rev", {":rev": N(1)})
    ok2, d2 = error(lambda: put(3, "#rev = :rev", {":rev": N(1)}), "ConditionalCheckFailedException")
    return ok1 and ok2, d2


check("PutItem attribute_not_exists / #rev = :rev (shard map)", shard_map)


def batch_write_25():
    c.batch_write_item(RequestItems={T: [{"PutRequest": {"Item": rec("B", "r%02d" % i, work_id_index_key=S("w:x"))}} for i in range(25)]})
    return True, "25 accepted"


check("BatchWriteItem 25", batch_write_25)
check("BatchWriteItem 26 -> ValidationException",
      lambda: error(lambda: c.batch_write_item(RequestItems={T: [{"PutRequest": {"Item": rec("B26", "s%02d" % i)}} for i in range(26)]}),
                    "ValidationException"))
check("BatchWriteItem duplicate keys -> ValidationException",
      lambda: error(lambda: c.batch_write_item(RequestItems={T: [{"PutRequest": {"Item": rec("B", "d")}}] * 2}),
                    "ValidationException"))


def batch_get_100():
    r = c.batch_get_item(RequestItems={T: {"Keys": [{"time_index_key": S("B"), "range_key": S("r%02d" % i)} for i in range(25)] + [{"time_index_key": S("B"), "range_key": S("n%03d" % i)} for i in range(75)],
                                          "ConsistentRead": True}})
    return True, "%d found" % len(r["Responses"][T])


check("BatchGetItem 100", batch_get_100)
check("BatchGetItem 101 -> ValidationException",
      lambda: error(lambda: c.batch_get_item(RequestItems={T: {"Keys": [{"time_index_key": S("B"), "range_key": S("r%03d" % i)} for i in range(101)]}}),
                    "ValidationException"))


def query_forms():
    q = lambda cond, vals, **kw: c.query(TableName=T, KeyConditionExpression=cond, ExpressionAttributeNames=dict({"#h": "time_index_key"}, **({"#r": "range_key"} if "#r" in cond else {})),
                                         ExpressionAttributeValues=dict({":h": S("B")}, **vals), ConsistentRead=True, **kw)
    a = q("#h = :h AND begins_with(#r, :r)", {":r": S("r1")})
    b = q("#h = :h AND #r > :r", {":r": S("r20")})
    d = q("#h = :h AND #r BETWEEN :a AND :b", {":a": S("r05"), ":b": S("r07")})
    p1 = q("#h = :h", {}, Limit=10)
    p2 = q("#h = :h", {}, Limit=10, ExclusiveStartKey=p1["LastEvaluatedKey"])
    ok = (a["Count"] == 10 and b["Count"] == 4 and d["Count"] == 3 and p1["Count"] == 10
          and p2["Items"][0]["range_key"]["S"] == "r10")
    return ok, (a["Count"], b["Count"], d["Count"], p1["Count"], p2["Items"][0]["range_key"])


check("Query begins_with, >, BETWEEN, Limit + ExclusiveStartKey", query_forms)


def gsi():
    r = c.query(TableName=T, IndexName="work-id-index", KeyConditionExpression="#w = :w AND #r > :r",
                ExpressionAttributeNames={"#w": "work_id_index_key", "#r": "range_key"},
                ExpressionAttributeValues={":w": S("w:x"), ":r": S("r20")}, Limit=2)
    return r["Count"] == 2 and r["Items"][0]["range_key"]["S"] == "r21" and "LastEvaluatedKey" in r, (r["Count"], r.get("LastEvaluatedKey"))


check("Query work-id-index with > and Limit, LastEvaluatedKey", gsi)


def scans():
    r = c.scan(TableName=T, FilterExpression="begins_with(#u, :p)", ExpressionAttributeNames={"#u": "url"},
               ExpressionAttributeValues={":p": S("u")}, ConsistentRead=True)
    total = 0
    for seg in range(4):
        total += c.scan(TableName=T, Segment=seg, TotalSegments=4, ConsistentRead=True)["Count"]
    allc = c.scan(TableName=T, ConsistentRead=True)["Count"]
    return total == allc, "segments %d of %d" % (total, allc)


check("Scan filter + parallel Segment/TotalSegments", scans)
check("ResourceNotFoundException for a missing table",
      lambda: error(lambda: c.query(TableName="nope", KeyConditionExpression="a = :a", ExpressionAttributeValues={":a": S("x")}),
                    "ResourceNotFoundException"))

# Limits
check("hash key 2048 bytes accepted", lambda: (c.put_item(TableName=T, Item=rec("h" * 2048, "r")) is not None, "ok"))
check("hash key 2049 bytes -> ValidationException",
      lambda: error(lambda: c.put_item(TableName=T, Item=rec("h" * 2049, "r")), "ValidationException"))
check("range key 1024 bytes accepted", lambda: (c.put_item(TableName=T, Item=rec("K", "r" * 1024)) is not None, "ok"))
check("range key 1025 bytes -> ValidationException",
      lambda: error(lambda: c.put_item(TableName=T, Item=rec("K", "r" * 1025)), "ValidationException"))
check("range key 1025 bytes in BatchWriteItem -> ValidationException",
      lambda: error(lambda: c.batch_write_item(RequestItems={T: [{"PutRequest": {"Item": rec("K", "q" * 1025)}}]}), "ValidationException"))
check("range key 1025 bytes (multi-byte) -> ValidationException",
      lambda: error(lambda: c.put_item(TableName=T, Item=rec("K", "é" * 513)), "ValidationException"))
check("GSI hash key 2049 bytes -> ValidationException",
      lambda: error(lambda: c.put_item(TableName=T, Item=rec("K", "g", work_id_index_key=S("w" * 2049))), "ValidationException"))
check("item of 400 KB accepted",
      lambda: (c.put_item(TableName=T, Item=rec("Z", "a", blob=S("x" * (400 * 1024 - 100)))) is not None, "ok"))
check("item over 400 KB -> ValidationException",
      lambda: error(lambda: c.put_item(TableName=T, Item=rec("Z", "b", blob=S("x" * (400 * 1024 + 10)))), "ValidationException", "size"))
check("item over 400 KB in BatchWriteItem -> ValidationException",
      lambda: error(lambda: c.batch_write_item(RequestItems={T: [{"PutRequest": {"Item": rec("Z", "c", blob=S("x" * (400 * 1024 + 10)))}}]}),
                    "ValidationException", "size"))
check("update growing an item over 400 KB -> ValidationException",
      lambda: error(lambda: c.update_item(TableName=T, Key={"time_index_key": S("Z"), "range_key": S("a")}, UpdateExpression="SET b2 = :b",
                                          ExpressionAttributeValues={":b": S("y" * 2000)}), "ValidationException", "size"))


def one_mb_page():
    blob = "x" * (100 * 1024)
    for i in range(25):
        c.put_item(TableName=T, Item=rec("P", "p%02d" % i, blob=S(blob)))
    r = c.query(TableName=T, KeyConditionExpression="time_index_key = :h", ExpressionAttributeValues={":h": S("P")})
    return r["Count"] < 25 and "LastEvaluatedKey" in r, "%d items (~%d KB) and LastEvaluatedKey=%s" % (r["Count"], r["Count"] * 100, "LastEvaluatedKey" in r)


check("Query page stops at 1 MB", one_mb_page)


def utf8_order():
    keys = ["a\uff61", "a\U0001F600", "a\ue000", "a~", "a\u00e9"]
    for k in keys:
        c.put_item(TableName=T, Item=rec("U", k))
    got = [i["range_key"]["S"] for i in c.query(TableName=T, KeyConditionExpression="time_index_key = :h",
                                                  ExpressionAttributeValues={":h": S("U")})["Items"]]
    want = sorted(keys, key=lambda s: s.encode("utf-8"))
    return got == want, [k.encode("unicode_escape").decode() for k in got]


check("range keys ordered by UTF-8 bytes", utf8_order)


def throughput():
    t0 = time.time()
    n = 0
    for b in range(40):
        c.batch_write_item(RequestItems={T: [{"PutRequest": {"Item": rec("20000:what%d" % (b % 4), "where%d:id%05d" % (b, i),
                                                                             metadata={"M": {"start": N(1), "id": S("x")}}, url=S("s3://b/k"), size=N(1))}} for i in range(25)]})
        n += 25
    w = n / (time.time() - t0)
    t0 = time.time()
    q = 0
    for i in range(100):
        c.query(TableName=T, KeyConditionExpression="time_index_key = :h", ExpressionAttributeValues={":h": S("20000:what1")}, Limit=101)
        q += 1
    return True, "%.0f items/s written in batches of 25; %.1f ms per 101-item Query" % (w, (time.time() - t0) * 1000 / q)


check("throughput", throughput)
print("SUMMARY %d ok of %d" % (sum(1 for r in results if r[1]), len(results)))
