// The page an invitation's link opens: a signed-in customer joins; anyone else signs up with the invitation (which
// joins and verifies the address) or logs in and then joins. Afterwards the dashboard opens in that organization.
import { api, ApiError, messageOf } from './api.js';
import { busy, clearErrors, onSubmit, showAlert } from './ui.js';

const $ = (id) => document.getElementById(id);
const token = new URLSearchParams(location.search).get('token') || '';

async function main() {
  if (!token) {
    showAlert($('notice'), 'error', 'This link has no invitation in it. Open the link from the mail again.');
    return;
  }
  let session = null;
  try {
    session = await api('GET', '/api/v1/session', undefined, { expectUnauthenticated: true });
  } catch (error) {
    // not signed in: offer both ways in
  }
  if (session) {
    $('signed-in-email').textContent = session.email;
    $('signed-in').hidden = false;
    $('join').addEventListener('click', (event) => busy(event.currentTarget, 'Joining…', () => join($('notice'))));
  } else {
    wireSignup();
    wireLogin();
  }
}

/** Accepts with the current session and opens the dashboard in the organization joined. */
async function join(errorPlace) {
  try {
    const joined = await api('POST', '/api/v1/invitations/accept', { token });
    await openOrganization(joined.organization_id);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'invitation_email_mismatch') {
      showAlert(errorPlace, 'error', error.message + ' Verify your address first, or log in with the invited one.');
    } else {
      showAlert(errorPlace, 'error', messageOf(error, 'The invitation could not be accepted.'));
    }
  }
}

async function openOrganization(organizationId) {
  const session = await api('GET', '/api/v1/session');
  const project = session.projects.find((p) => p.organization_id === organizationId);
  if (project) await api('PUT', '/api/v1/session/project', { project_id: project.id });
  location.replace('/dashboard');
}

function wireSignup() {
  const form = $('invitation-signup-form');
  form.hidden = false;
  onSubmit(form, $('signup-join'), 'Creating account…', async () => {
    clearErrors(form);
    const body = { email: $('signup-email').value.trim(), password: $('signup-password').value, invitation_token: token };
    await api('POST', '/api/v1/auth/signup', body, { expectUnauthenticated: true });
    location.replace('/dashboard');
  }, { email_taken: 'email', invitation_email_mismatch: 'email' });
}

function wireLogin() {
  const form = $('invitation-login-form');
  form.hidden = false;
  onSubmit(form, $('login-join'), 'Logging in…', async () => {
    clearErrors(form);
    const body = { email: $('login-email').value.trim(), password: $('login-password').value };
    const answer = await api('POST', '/api/v1/auth/login', body, { expectUnauthenticated: true });
    if (answer && answer.mfa_required) {
      showAlert(form.querySelector('[data-form-error]'), 'info', 'Your account uses two-step login: log in on the log-in page first, then open this link again.');
      return;
    }
    await join(form.querySelector('[data-form-error]'));
  });
}

main();
