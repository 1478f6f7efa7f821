// What Next's server sets up before it loads anything (next/dist/server/node-environment-baseline): the global
// AsyncLocalStorage its request stores are made from. Without it, a test file that reaches them (React's decodeReply
// behind the proxy's request guard) threw "AsyncLocalStorage accessed in runtime where it is not available" unless
// another file in the same worker had loaded that baseline first: it passed or failed by the order files ran in.
import "next/dist/server/node-environment-baseline";
