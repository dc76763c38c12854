"""A WebHDFS client on Python's standard library, as Python tools and Hue
talk to a NameNode: urllib for the one-step operations and the two-step
CREATE by hand (PUT to the NameNode without data, then the data to the
DataNode URL of its 307). It prints one line per step for the Go test."""

import json
import sys
import urllib.error
import urllib.parse
import urllib.request

BASE = sys.argv[1] + "/webhdfs/v1"


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


NO_REDIRECT = urllib.request.build_opener(NoRedirect)


def url(path, user, **params):
    params["user.name"] = user
    return BASE + urllib.parse.quote(path) + "?" + urllib.parse.urlencode(params)


def call(method, path, user="alice", data=None, opener=None, **params):
    req = urllib.request.Request(url(path, user, **params), data=data, method=method)
    try:
        with (opener or urllib.request.build_opener()).open(req) as resp:
            return resp.status, dict(resp.headers), resp.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def create(path, data, user="alice"):
    status, headers, _ = call("PUT", path, user=user, opener=NO_REDIRECT, op="CREATE")
    if status != 307:
        return status, headers, b""
    req = urllib.request.Request(headers["Location"], data=data, method="PUT")
    try:
        with urllib.request.urlopen(req) as resp:
            return resp.status, dict(resp.headers), resp.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def remote(body):
    return json.loads(body)["RemoteException"]["exception"]


status, _, body = call("PUT", "/user/alice/py/in", op="MKDIRS")
print("mkdirs", json.loads(body)["boolean"])

status, headers, _ = create("/user/alice/py/in/data.txt", b"a,b\n")
print("create", status, headers.get("Location"))

status, _, body = call("GET", "/user/alice/py/in", op="LISTSTATUS")
for st in json.loads(body)["FileStatuses"]["FileStatus"]:
    print("list", st["pathSuffix"], st["type"], st["owner"])

status, _, body = call("GET", "/user/alice/from-rpc.txt", op="OPEN")
print("read", repr(body.decode()))

status, _, body = call("PUT", "/user/alice/py/in/data.txt", op="RENAME", destination="/user/alice/py/renamed.txt")
print("rename", json.loads(body)["boolean"])

status, _, body = create("/user/alice/py/bob.txt", b"x", user="bob")
print("refused", status, remote(body))

status, _, body = call("GET", "/user/alice/py/nothing", op="GETFILESTATUS")
print("missing", status, remote(body))

create("/user/alice/py/out.txt", b"from python\n")
status, _, body = call("DELETE", "/user/alice/py/in", op="DELETE", recursive="true")
print("delete", json.loads(body)["boolean"])
