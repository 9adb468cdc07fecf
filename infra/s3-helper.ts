/**
 * What an instance's user-data uses to reach S3 before the kit (and Node.js) exists: a Python 3 script of the
 * standard library alone. Every cloud-init image has python3 (cloud-init is written in it), so the boot can report
 * its own failure even when apt, the mirror or the Node.js download is what failed, and it needs no AWS CLI (no
 * snap on Debian, 100 MB of packages otherwise). Requests are signed with Signature Version 4 as S3 documents it
 * ("Authenticating Requests: Using the Authorization Header (AWS Signature Version 4)", single chunk); credentials
 * come from the environment, the shared credentials file, or the instance profile through IMDSv2 (the AWS SDKs'
 * order). Transient failures (connection, 5xx, throttling) are retried; a refusal (403, 404) fails at once and names
 * the object.
 *
 *   s3 get s3://bucket/key FILE          s3 put FILE|- s3://bucket/key [content-type]
 *   s3 fetch https://host/path FILE      (a plain HTTPS download, retried)
 */
export const S3_HELPER_PY = String.raw`import configparser, datetime, hashlib, hmac, json, os, sys, time, urllib.error, urllib.parse, urllib.request

def imds_credentials():
    base = os.environ.get("AWS_EC2_METADATA_SERVICE_ENDPOINT", "http://169.254.169.254").rstrip("/")
    ask = lambda path, method="GET", headers={}: urllib.request.urlopen(
        urllib.request.Request(base + path, method=method, headers=headers), timeout=5).read().decode()
    token = {"X-aws-ec2-metadata-token": ask("/latest/api/token", "PUT", {"X-aws-ec2-metadata-token-ttl-seconds": "300"})}
    role = ask("/latest/meta-data/iam/security-credentials/", headers=token).split()[0]
    c = json.loads(ask("/latest/meta-data/iam/security-credentials/" + role, headers=token))
    return c["AccessKeyId"], c["SecretAccessKey"], c.get("Token")

def credentials():
    env = os.environ
    if env.get("AWS_ACCESS_KEY_ID"):
        return env["AWS_ACCESS_KEY_ID"], env["AWS_SECRET_ACCESS_KEY"], env.get("AWS_SESSION_TOKEN")
    path = env.get("AWS_SHARED_CREDENTIALS_FILE", os.path.expanduser("~/.aws/credentials"))
    if os.path.exists(path):
        c = configparser.ConfigParser()
        c.read(path)
        p = c[env.get("AWS_PROFILE", "default")]
        return p["aws_access_key_id"], p["aws_secret_access_key"], p.get("aws_session_token")
    return imds_credentials()

def sign(method, host, path, region, body_hash, creds, now, extra=None):
    key_id, secret, token = creds
    stamp = now.strftime("%Y%m%dT%H%M%SZ")
    headers = {"host": host, "x-amz-content-sha256": body_hash, "x-amz-date": stamp, **(extra or {})}
    if token:
        headers["x-amz-security-token"] = token
    names = sorted(headers)
    canonical = "\n".join([method, path, ""] + ["%s:%s" % (n, headers[n].strip()) for n in names]
                          + ["", ";".join(names), body_hash])
    scope = "%s/%s/s3/aws4_request" % (stamp[:8], region)
    to_sign = "\n".join(["AWS4-HMAC-SHA256", stamp, scope, hashlib.sha256(canonical.encode()).hexdigest()])
    key = ("AWS4" + secret).encode()
    for part in (stamp[:8], region, "s3", "aws4_request"):
        key = hmac.new(key, part.encode(), hashlib.sha256).digest()
    signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    headers["authorization"] = "AWS4-HMAC-SHA256 Credential=%s/%s, SignedHeaders=%s, Signature=%s" % (
        key_id, scope, ";".join(names), signature)
    return headers

def attempt(what, request_of, handle):
    for i in range(6):
        try:
            with urllib.request.urlopen(request_of(), timeout=60) as response:
                return handle(response)
        except urllib.error.HTTPError as e:
            detail = e.read(300).decode("utf-8", "replace")
            if e.code < 500 and e.code != 429:
                sys.exit("%s: HTTP %d %s" % (what, e.code, detail))
            error = "HTTP %d" % e.code
        except (urllib.error.URLError, OSError) as e:
            error = str(e)
        if i < 5:
            time.sleep(2 ** i)
    sys.exit("%s: %s (after 6 attempts)" % (what, error))

def s3_request(method, url, body=b""):
    bucket, _, key = url[len("s3://"):].partition("/")
    region = os.environ.get("AWS_REGION") or os.environ["AWS_DEFAULT_REGION"]
    host = "%s.s3.%s.amazonaws.com" % (bucket, region)
    path = "/" + urllib.parse.quote(key, safe="/~")
    def request():
        headers = sign(method, host, path, region, hashlib.sha256(body).hexdigest(), credentials(),
                       datetime.datetime.now(datetime.timezone.utc))
        return urllib.request.Request("https://" + host + path, data=body or None, method=method, headers=headers)
    return request

def save(response, path):
    with open(path + ".part", "wb") as out:
        while True:
            chunk = response.read(1 << 20)
            if not chunk:
                break
            out.write(chunk)
    os.replace(path + ".part", path)

def main(args):
    if args[0] == "get":
        attempt("s3 get " + args[1], s3_request("GET", args[1]), lambda r: save(r, args[2]))
    elif args[0] == "put":
        body = sys.stdin.buffer.read() if args[1] == "-" else open(args[1], "rb").read()
        request = s3_request("PUT", args[2], body)
        def typed():
            r = request()
            r.add_header("Content-Type", args[3] if len(args) > 3 else "application/octet-stream")
            return r
        attempt("s3 put " + args[2], typed, lambda r: None)
    elif args[0] == "fetch":
        attempt("fetch " + args[1], lambda: urllib.request.Request(args[1]), lambda r: save(r, args[2]))
    else:
        sys.exit("usage: s3 get|put|fetch ...")

if __name__ == "__main__":
    main(sys.argv[1:])
`;
