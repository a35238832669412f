"""Writes files into a records table (and latest table, and bucket) as the Python datalake did.

The records are made by the PyPI datalake package's own code (datalake.common.Metadata and
DatalakeRecord) and put one by one with boto3's Table.put_item, as its ingester stored them; a file's
latest-table item has the shape of that ingester's store_latest (the record's keys, metadata, url and
create_time, no size) and is put under the same condition (the newest start wins).

Standard input: a JSON list of files, each
    {"metadata": {...},            Metadata(**metadata): what, where, start, end, path, work_id, hash, id
     "create_time": ms, "size": n, (optional) as DatalakeRecord takes them
     "first_format": true,         (optional) the first record format: no create_time and no size keys
     "latest": true,               (optional) also put its latest-table item
     "object": true}               (optional) also put its object, <bucket>/<id>/data, with the metadata
Standard output: one line per file, "<id> <number of records>".
Credentials and nothing else come from the environment; endpoints and names are arguments.
"""
import argparse
import json
import sys

import boto3
from datalake.common import DatalakeRecord, Metadata


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--dynamodb-endpoint', required=True)
    parser.add_argument('--s3-endpoint', required=True)
    parser.add_argument('--region', required=True)
    parser.add_argument('--records-table', required=True)
    parser.add_argument('--latest-table', required=True)
    parser.add_argument('--bucket', required=True)
    args = parser.parse_args()

    dynamodb = boto3.resource('dynamodb', region_name=args.region, endpoint_url=args.dynamodb_endpoint)
    records = dynamodb.Table(args.records_table)
    latest = dynamodb.Table(args.latest_table)
    s3 = boto3.client('s3', region_name=args.region, endpoint_url=args.s3_endpoint)

    for spec in json.load(sys.stdin):
        metadata = Metadata(**spec['metadata'])
        url = 's3://{}/{}/data'.format(args.bucket, metadata['id'])
        written = []
        for bucket in DatalakeRecord.get_time_buckets_from_metadata(metadata):
            record = DatalakeRecord(url, metadata, bucket, spec.get('create_time'), spec.get('size'))
            if spec.get('first_format'):
                del record['create_time']
                del record['size']
            records.put_item(Item=record)
            written.append(record)
        if spec.get('latest'):
            put_latest(latest, written[-1])
        if spec.get('object'):
            s3.put_object(Bucket=args.bucket, Key=metadata['id'] + '/data',
                          Body=('content of ' + metadata['id'] + '\n').encode('utf-8'),
                          Metadata={'datalake': metadata.json})
        print(metadata['id'], len(written))


def put_latest(table, record):
    """The ingester's latest-table item: no size, and only when no newer start is there."""
    m = record['metadata']
    item = {
        'what_where_key': m['what'] + ':' + m['where'],
        'time_index_key': record['time_index_key'],
        'range_key': record['range_key'],
        'metadata': {name: m[name] for name in
                     ('start', 'end', 'id', 'path', 'hash', 'version', 'what', 'where', 'work_id')},
        'url': record['url'],
        'create_time': record.get('create_time'),
    }
    table.put_item(Item=item,
                   ConditionExpression='attribute_not_exists(what_where_key) OR metadata.#start <= :start',
                   ExpressionAttributeNames={'#start': 'start'},
                   ExpressionAttributeValues={':start': m['start']})


if __name__ == '__main__':
    main()
