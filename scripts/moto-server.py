#!/usr/bin/env python3
"""moto's server, as `ycsb-lab rehearse` runs it: the same as `moto_server`, with two fixes to its IAM enforcement.

With IAM enforced (INITIAL_NO_AUTH_ACTION_COUNT), moto 5 recomputes each request's SigV4 signature from the query
string as Werkzeug decoded it, so any query value holding a "/" (S3 list requests with a prefix, the runner's
barriers) fails with SignatureDoesNotMatch although the client signed correctly (getmoto/moto#5948). SigV4 signs
each query key and value URI-encoded (AWS "Create a canonical request"): re-encode them before moto checks.

It also judges every SSM call against the resource "*", so a policy granting one parameter path (the run's
secrets) denies everything: parameter actions are judged against the parameter's ARN, as AWS does
(arn:aws:ssm:<region>:<account>:parameter/<name>, SSM user guide "Restricting access to parameters").
Arguments are moto_server's (-H host -p port).
"""
import json
import sys
from urllib.parse import quote, unquote

from moto.iam import access_control

_create = access_control.IAMRequestBase._create_aws_request


def _create_with_encoded_query(self):
    path, sep, query = self._path.partition("?")
    if sep:
        pairs = []
        for pair in query.split("&"):
            key, eq, value = pair.partition("=")
            pairs.append(quote(unquote(key), safe="-_.~") + (("=" + quote(unquote(value), safe="-_.~")) if eq else ""))
        self._path = path + "?" + "&".join(pairs)
    return _create(self)


access_control.IAMRequestBase._create_aws_request = _create_with_encoded_query

from moto.ssm.responses import SimpleSystemManagerResponse  # noqa: E402

_PARAMETER_ACTIONS = {"GetParameter", "PutParameter", "DeleteParameter", "GetParameterHistory", "LabelParameterVersion"}


def _parameter_arn(self):
    if self._get_action() not in _PARAMETER_ACTIONS:
        return "*"
    body = self.body.decode("utf-8") if isinstance(self.body, bytes) else (self.body or "{}")
    name = json.loads(body or "{}").get("Name", "")
    return f"arn:aws:ssm:{self.region}:{self.current_account}:parameter{name if name.startswith('/') else '/' + name}"


SimpleSystemManagerResponse._determine_resource = _parameter_arn

from moto.server import main  # noqa: E402  (after the fix, so the server uses it)

if __name__ == "__main__":
    main(sys.argv[1:])
