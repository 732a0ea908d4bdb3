// The dashboard's only way to the API: same-origin fetch with the session cookie, the CSRF echo, problem
// details turned into ApiError, and any 401 sending the browser back to the log-in page.

// Refusals whose API wording is written for scripts (it names API paths): what a person reads in the dashboard instead
const DASHBOARD_WORDS = {
  email_unverified: 'Please verify your email address first: open the link we mailed you, or choose “Send a new link” at'
    + ' the top of the page. Until then you can look around, but not create keys, invite people, add webhook endpoints,'
    + ' create organizations, turn on two-step login or upgrade.',
};

/** An error answer of the API (RFC 9457 problem details), or a network failure (status 0). */
export class ApiError extends Error {
  constructor(status, problem) {
    const body = problem && typeof problem === 'object' ? problem : {};
    const words = DASHBOARD_WORDS[body.code];
    super(words || (typeof body.detail === 'string' && body.detail ? body.detail : defaultMessage(status)));
    this.status = status;
    this.code = typeof body.code === 'string' ? body.code : '';
    this.errors = Array.isArray(body.errors) ? body.errors : [];
    this.retryAfter = null;
  }
}

/** What to tell the person about a failed call: the API's own words, or `fallback` for any other failure. */
export function messageOf(error, fallback) {
  return error instanceof ApiError ? error.message : fallback;
}

function defaultMessage(status) {
  if (status === 0) return 'The service could not be reached. Check your connection and try again.';
  if (status >= 500) return 'Something went wrong on our side. Please try again in a moment.';
  return 'The request could not be completed (HTTP ' + status + ').';
}

function csrfToken() {
  for (const part of document.cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === 'XSRF-TOKEN') return decodeURIComponent(rest.join('='));
  }
  return null;
}

/** Leaves for the log-in page; `next` brings the person back here afterwards. */
export function goToLogin(reason) {
  const params = new URLSearchParams();
  if (reason) params.set('reason', reason);
  if (location.pathname.startsWith('/dashboard')) params.set('next', location.pathname);
  const query = params.toString();
  location.replace('/login' + (query ? '?' + query : ''));
}

let leaving = false;

/**
 * Calls the API and answers the parsed JSON body (null for 204).
 * Options: `expectUnauthenticated` for sign-in calls, whose 401 is an answer rather than an expired session.
 */
export async function api(method, path, body, options = {}) {
  const response = await send(method, path, body);
  if (response.status === 403 && method !== 'GET' && !options.retried) {
    const problem = await readJson(response);
    if (problem && problem.code === 'csrf_failed') {
      // the XSRF-TOKEN cookie went missing (e.g. cleared by the browser): fetch a fresh one and try once more
      await send('GET', '/api/v1/session');
      return api(method, path, body, { ...options, retried: true });
    }
    throw new ApiError(403, problem);
  }
  if (response.status === 401 && !options.expectUnauthenticated) {
    if (!leaving) {
      leaving = true;
      goToLogin('expired');
    }
    // the page is going away: never settle, so that no caller renders a half-broken state meanwhile
    return new Promise(() => {});
  }
  const data = await readJson(response);
  if (!response.ok) {
    const error = new ApiError(response.status, data);
    error.retryAfter = response.headers.get('Retry-After');
    throw error;
  }
  return data;
}

async function send(method, path, body) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD') {
    const token = csrfToken();
    if (token) headers['X-XSRF-TOKEN'] = token;
  }
  try {
    return await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
      redirect: 'error',
    });
  } catch (e) {
    throw new ApiError(0, null);
  }
}

async function readJson(response) {
  if (response.status === 204) return null;
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch (e) {
    return null;
  }
}
