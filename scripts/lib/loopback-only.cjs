// Preloaded into Prism (node --require): refuses every outgoing connection that is not to the
// loopback interface or a local socket, so the mock and the validation proxy can never reach the
// network, whatever a spec's URLs (tokenUrl, servers, a remote $ref) point at.
'use strict';
const net = require('node:net');

const loopbackNames = new Set(['localhost', '127.0.0.1', '::1', '[::1]', '0:0:0:0:0:0:0:1']);

function isLoopback(host) {
  if (host === undefined || host === null || host === '') return true; // Node's default is localhost.
  const name = String(host).toLowerCase();
  return loopbackNames.has(name) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name) || /^::ffff:127\./.test(name);
}

function target(args) {
  const [first, second] = args;
  if (Array.isArray(first)) return target(first); // internal normalised form [options, callback]
  if (first !== null && typeof first === 'object') return first.path ? { local: true } : { host: first.host };
  if (typeof first === 'string' && !/^\d+$/.test(first)) return { local: true }; // a socket path
  return { host: typeof second === 'string' ? second : undefined };
}

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  const where = target(args);
  if (!where.local && !isLoopback(where.host)) {
    const error = new Error(`loopback-only: refused a connection to ${where.host} (Prism must not reach the network)`);
    error.code = 'ECONNREFUSED';
    process.nextTick(() => this.destroy(error));
    return this;
  }
  return connect.apply(this, args);
};
