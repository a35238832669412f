"""Writes header.json: a file with fields beyond version 0's nine, and the x-amz-meta-datalake header the
Python datalake client writes for it (datalake 2.5.11's Archive.push stores json.dumps(File.metadata)).
LocalRunnerIT pushes it. From this folder: ../../../../../.venv/bin/python make_header.py > header.json
"""
import io
import json

from datalake import File

CONTENT = b'a file with fields beyond the nine\n'
EXTRAS = {
    'data-version': '3',
    'tags': ['a', 'b'],
    'quality': {'score': 0.25, 'ok': True, 'note': None, 'by': {'who': 'qa'}},
    'count': 12,
    'owner': 'Zo\u00eb',
}
f = File(io.BytesIO(CONTENT), what='runner-extras', where='laptop', start=1426809920345,
         end=1426813520345, path='/var/log/extras.log', work_id=None, id='runner-extras-1', **EXTRAS)
print(json.dumps({'content': CONTENT.decode(), 'header': json.dumps(f.metadata)}, indent=2))
