# SPDX-License-Identifier: Apache-2.0
# Sourced by the serve benchmarks: nginx answering every request with a fixed AdmissionReview (the answer
# serve gives to tests/bench/serve_review.json) over TLS, the ceiling of TLS + HTTP/1.1 on this machine.
#   start_nginx_review DIR CERT_DIR WORKERS [CPU]
# writes its configuration and temporary files under DIR, uses CERT_DIR/tls.{crt,key}, runs WORKERS
# workers (pinned to CPU with taskset when given), waits until it answers, and sets nginx_port and
# nginx_master (the PID to stop).
start_nginx_review() {
  local dir=$1 certs=$2 workers=$3 cpu=${4:-} bin fixed
  bin=$(command -v nginx || echo /usr/sbin/nginx)
  nginx_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  fixed='{"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","response":{"uid":"2b8e4c9a-6f1d-4e3b-9a7c-5d2f8e1b3c4a","allowed":true,"status":{"metadata":{},"code":200}}}'
  mkdir -p "$dir"
  cat >"$dir/nginx.conf" <<CONF
worker_processes $workers;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $dir/body; proxy_temp_path $dir/proxy;
  fastcgi_temp_path $dir/fastcgi; uwsgi_temp_path $dir/uwsgi; scgi_temp_path $dir/scgi;
  client_max_body_size 8m; client_body_buffer_size 16k;
  keepalive_requests 10000000; keepalive_timeout 120s;
  server {
    listen 127.0.0.1:$nginx_port ssl;
    ssl_certificate $certs/tls.crt; ssl_certificate_key $certs/tls.key;
    ssl_protocols TLSv1.2 TLSv1.3;
    location / { default_type application/json; return 200 '$fixed'; }
  }
}
CONF
  if [ -n "$cpu" ]; then
    taskset -c "$cpu" "$bin" -c "$dir/nginx.conf" -p "$dir" -g 'daemon off;' 2>>"$dir/error.log" &
  else
    "$bin" -c "$dir/nginx.conf" -p "$dir" -g 'daemon off;' 2>>"$dir/error.log" &
  fi
  nginx_master=$!
  for _ in $(seq 500); do curl -sk -o /dev/null "https://127.0.0.1:$nginx_port/" && return 0; sleep 0.01; done
  echo "nginx did not answer on port $nginx_port (see $dir/error.log)" >&2
  return 1
}
