// The WebSocket to the session, reconnecting after a drop.
//
// new Connection({url, onMessage, onOpen, onClose}) connects at once; url is
// a function (asked at every (re)connection, so it can carry the current
// language). Messages are parsed JSON objects; a frame that is not one is
// ignored. send() returns false when the socket is not open.

const MIN_RETRY_MS = 500;
const MAX_RETRY_MS = 5000;

export class Connection {
  constructor({ url, onMessage, onOpen, onClose }) {
    this.url = url;
    this.onMessage = onMessage || (() => {});
    this.onOpen = onOpen || (() => {});
    this.onClose = onClose || (() => {});
    this.socket = null;
    this.retryMs = MIN_RETRY_MS;
    this.retryTimer = null;
    this.opens = 0;
    this.connect();
  }

  get connected() {
    return Boolean(this.socket && this.socket.readyState === WebSocket.OPEN);
  }

  connect() {
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    let socket;
    try {
      socket = new WebSocket(this.url());
    } catch (_err) {
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (socket !== this.socket) return;
      this.retryMs = MIN_RETRY_MS;
      this.opens += 1;
      safely(() => this.onOpen(this.opens > 1));
    });
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket) return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (_err) {
        return;
      }
      if (message && typeof message === "object") safely(() => this.onMessage(message));
    });
    socket.addEventListener("close", () => {
      if (socket !== this.socket) return;
      this.socket = null;
      safely(() => this.onClose(this.retryMs));
      this.scheduleRetry();
    });
    socket.addEventListener("error", () => {
      // a "close" event follows; nothing to do here
    });
  }

  scheduleRetry() {
    if (this.retryTimer) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(MAX_RETRY_MS, Math.round(this.retryMs * 1.6));
    this.retryTimer = setTimeout(() => this.connect(), wait);
  }

  /** Reconnect now (e.g. a "Retry" button, or a new language in the URL). */
  reconnect() {
    const old = this.socket;
    this.socket = null;
    if (old) {
      try {
        old.close();
      } catch (_err) {
        // already closing
      }
    }
    this.retryMs = MIN_RETRY_MS;
    this.connect();
  }

  send(message) {
    if (!this.connected) return false;
    try {
      this.socket.send(JSON.stringify(message));
      return true;
    } catch (_err) {
      return false;
    }
  }
}

function safely(fn) {
  try {
    fn();
  } catch (err) {
    // one bad message must not stop the page
    console.warn("zerosum:", err);
  }
}
