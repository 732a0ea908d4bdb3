"""A webhook receiver for bench/webhooks.sh: answers every POST 204 on 127.0.0.1, a thread per connection; with
the argument `hang` it reads the request and never answers (the service's timeout ends each attempt)."""
import sys
import time

HANG = len(sys.argv) > 2 and sys.argv[2] == "hang"
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Receiver(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if HANG:
            time.sleep(3600)
        self.send_response(204)
        self.send_header("Connection", "close")
        self.end_headers()

    def log_message(self, *args):
        pass


ThreadingHTTPServer.daemon_threads = True
ThreadingHTTPServer.request_queue_size = 256
ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Receiver).serve_forever()
