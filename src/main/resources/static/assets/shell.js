// The frame of every signed-in page: who is signed in, the organization switcher with the role held there, the
// project switcher, "New project" and log-out. What the role may do comes from the session (the server's roles
// table): pages offer only that.
import { api, messageOf } from './api.js';
import { busy, el, formDialog, onSubmit, showAlert } from './ui.js';

/**
 * Loads the session (a 401 leads to the log-in page) and wires the top bar. `onProjectChange(session)` runs
 * after the active project changed, so that the page can reload its own data without a full reload.
 */
export async function startShell({ onProjectChange }) {
  let session = await api('GET', '/api/v1/session');
  const select = document.getElementById('project-select');
  const email = document.getElementById('account-email');
  const status = document.getElementById('shell-status');
  email.textContent = session.email;
  email.title = session.email;
  const organizations = document.getElementById('organization-select');
  renderProjects(select, session);
  renderOrganizations(organizations, session);
  if (!session.email_verified) verificationBanner(session);

  organizations.addEventListener('change', async () => {
    const project = session.projects.find((p) => p.organization_id === organizations.value);
    if (!project) return;
    organizations.disabled = true;
    try {
      session = await api('PUT', '/api/v1/session/project', { project_id: project.id });
      // a page shows what the role allows: load it again for the new organization's role
      location.reload();
    } catch (error) {
      renderOrganizations(organizations, session);
      showAlert(status, 'error', messageOf(error, 'The organization could not be switched.'));
    } finally {
      organizations.disabled = false;
    }
  });

  select.addEventListener('change', async () => {
    const projectId = select.value;
    select.disabled = true;
    try {
      const before = session.organization_id;
      session = await api('PUT', '/api/v1/session/project', { project_id: projectId });
      if (session.organization_id !== before) {
        location.reload();
        return;
      }
      renderProjects(select, session);
      await onProjectChange(session);
    } catch (error) {
      renderProjects(select, session);
      showAlert(status, 'error', messageOf(error, 'The project could not be switched.'));
    } finally {
      select.disabled = false;
    }
  });

  wireNewProject(async (switched) => {
    session = switched;
    renderProjects(select, session);
    await onProjectChange(session);
  });

  document.getElementById('logout').addEventListener('click', async (event) => {
    await busy(event.currentTarget, 'Logging out…', async () => {
      try {
        await api('POST', '/api/v1/auth/logout');
      } catch (error) {
        // the session is of no use to us any more either way; the log-in page is the right place
      }
      location.replace('/login?reason=signed_out');
    });
  });

  if (!current(session).permissions.includes('manage_keys')) {
    document.getElementById('new-project').hidden = true;
  }

  return {
    get session() {
      return session;
    },
    /** The current organization as the session lists it: {id, name, role, permissions}. */
    get organization() {
      return current(session);
    },
    /** Whether the role in the current organization may (a permission as the session names it, e.g. manage_keys). */
    may(permission) {
      return current(session).permissions.includes(permission);
    },
    activeProjectName() {
      const project = session.projects.find((p) => p.id === session.project_id);
      return project ? project.name : '';
    },
  };
}

/** The page's data is in: its content takes the place of the "Loading…" line. */
export function showContent() {
  document.getElementById('loading').hidden = true;
  document.getElementById('content').hidden = false;
}

/** While the address is unverified: a banner above the page, with a way to get a new link. */
function verificationBanner(session) {
  const banner = el('div', { id: 'verify-banner' });
  const main = document.getElementById('main');
  main.insertBefore(banner, main.firstChild);
  const resend = el('button', { type: 'button', class: 'btn btn-secondary btn-small', id: 'resend-verification' }, 'Send a new link');
  showAlert(banner, 'warning', 'Please verify ' + session.email + ': open the link we mailed you. Until then you can look around,'
    + ' but creating API keys, inviting people, adding webhook endpoints, creating organizations, turning on two-step login'
    + ' and upgrading wait for it.', resend);
  resend.addEventListener('click', async () => {
    await busy(resend, 'Sending…', async () => {
      try {
        await api('POST', '/api/v1/account/verification-email');
        showAlert(banner, 'info', 'A new link is on its way to ' + session.email + '.');
      } catch (error) {
        showAlert(banner, 'error', messageOf(error, 'The link could not be sent.'));
      }
    });
  });
}

function current(session) {
  return session.organizations.find((o) => o.id === session.organization_id) || { id: null, name: '', role: '', permissions: [] };
}

function renderOrganizations(select, session) {
  select.replaceChildren(...session.organizations.map((organization) =>
    el('option', { value: organization.id, selected: organization.id === session.organization_id },
      organization.name)));
  select.value = session.organization_id || '';
  const badge = document.getElementById('role-badge');
  badge.textContent = current(session).role;
  badge.hidden = !current(session).role;
}

function renderProjects(select, session) {
  // the projects of the current organization; another organization's are reached through its switcher
  select.replaceChildren(...session.projects.filter((project) => project.organization_id === session.organization_id).map((project) =>
    el('option', { value: project.id, selected: project.id === session.project_id }, project.name)));
  select.value = session.project_id;
}

function wireNewProject(switched) {
  const { dialog, form, open } = formDialog('project');
  const input = document.getElementById('project-name');
  document.getElementById('new-project').addEventListener('click', () => {
    open();
    input.focus();
  });
  onSubmit(form, form.querySelector('button[type="submit"]'), 'Creating…', async () => {
    const project = await api('POST', '/api/v1/projects', { name: input.value });
    const session = await api('PUT', '/api/v1/session/project', { project_id: project.id });
    dialog.close();
    await switched(session);
    const status = document.getElementById('shell-status');
    showAlert(status, 'success', 'Project “' + project.name + '” created. It is now the active project.');
  });
}
