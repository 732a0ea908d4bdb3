// The dashboard's only way to the API: same-origin fetch with the session cookie, the CSRF echo, problem
// details turned into ApiError, and any 401 sending the browser back to the log-in page.

// Refusals whose API wording is written for scripts (it names API paths, headers or the request body): what a person
// reads in the dashboard instead
const RELOAD = ' Reload the page and try again; if it keeps failing, please contact support.';
const DASHBOARD_WORDS = {
  email_unverified: 'Please verify your email address first: open the link we mailed you, or choose “Send a new link” at'
    + ' the top of the page. Until then you can look around, but not create keys, invite people, add webhook endpoints,'
    + ' create organizations, turn on two-step login or upgrade.',
  csrf_failed: 'Your browser did not send the page\u2019s security token, so nothing was changed.' + RELOAD,
  malformed_json: 'The page sent something the service could not read, so nothing was changed.' + RELOAD,
  malformed_parameters: 'The page sent something the service could not read, so nothing was changed.' + RELOAD,
  bad_request: 'The page sent something the service could not read, so nothing was changed.' + RELOAD,
  payload_too_large: 'What you entered is too long to be saved. Shorten it and try again.',
  not_found: 'This is no longer there: someone may have removed it meanwhile.' + RELOAD,
  insufficient_permissions: 'You may not do this here.' + RELOAD,
  session_required: 'This can only be done while logged in to the dashboard.' + RELOAD,
  unauthenticated: 'You are not logged in any more. Log in again to continue.',
};

/**
 * Words meant for a program rather than a person: an API path, an HTTP method, a header or an environment variable.
 * A message that has them is not shown; the page says what went wrong in its own words instead.
 */
const API_SPEAK = /\/api\/|\/v3\/|\b(GET|POST|PUT|PATCH|DELETE)\b|\bX-[A-Z]|\b[A-Z]+_[A-Z_]+\b|\bJSON\b|Content-Type/;

/** The message, when a person can act on it as it stands; else null. */
export function forPeople(message) {
  return typeof message === 'string' && message && !API_SPEAK.test(message) ? message : null;
}

/** An error answer of the API (RFC 9457 problem details), or a network failure (status 0). */
export class ApiError extends Error {
  constructor(status, problem) {
    const body = problem && typeof problem === 'object' ? problem : {};
    const words = DASHBOARD_WORDS[body.code];
    super(words || forPeople(body.detail) || defaultMessage(status));
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
  return 'This could not be done.' + RELOAD;
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
