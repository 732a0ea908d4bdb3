// The members page: members and pending invitations, invite, change a role, remove behind a confirmation, leave;
// the organization's key policy (key-policy.js);
// for an owner, ownership transfer and deleting the organization behind typing its name. What the role may not do
// is not offered (the server refuses it anyway).
import { api, messageOf } from './api.js';
import { keyPolicyCard } from './key-policy.js';
import { showContent, startShell } from './shell.js';
import { busy, clearAlert, confirmDialog, el, fillTable, formDialog, onSubmit, showAlert, timeEl } from './ui.js';

const $ = (id) => document.getElementById(id);
const ROLES = ['owner', 'admin', 'developer', 'billing', 'viewer'];
let shell;
let list = { members: [], invitations: [] };
let keyPolicy;

async function main() {
  shell = await startShell({ onProjectChange: load });
  wireInvite();
  wireLeave();
  wireTransfer();
  wireDelete();
  keyPolicy = keyPolicyCard(shell);
  await load();
  showContent();
}

async function load() {
  const organization = shell.organization;
  $('organization-title').textContent = organization.name;
  $('your-role').textContent = organization.role;
  $('invite').hidden = !shell.may('manage_members');
  $('owner-card').hidden = !shell.may('manage_organization');
  await keyPolicy.load();
  try {
    list = await api('GET', '/api/v1/members');
    clearAlert($('members-status'));
  } catch (error) {
    list = { members: [], invitations: [] };
    showAlert($('members-status'), 'error', messageOf(error, 'The members could not be loaded.'));
  }
  render();
}

/** Whether the caller may change or remove this member: members managers, and an owner's membership only an owner. */
function mayManage(member) {
  return shell.may('manage_members') && member.customer_id !== shell.session.customer_id
    && (member.role !== 'owner' || shell.organization.role === 'owner');
}

function render() {
  $('members-body').replaceChildren(...list.members.map(memberRow));
  $('member-count').textContent = list.members.length === 1 ? '1 member' : list.members.length + ' members';
  fillTable('invitations', list.invitations.map(invitationRow));
}

function memberRow(member) {
  let role = el('span', { class: 'badge' }, member.role);
  let remove = null;
  if (mayManage(member)) {
    const offered = ROLES.filter((r) => r !== 'owner' || shell.organization.role === 'owner');
    role = el('select', { 'aria-label': 'Role of ' + member.email, 'data-action': 'role' },
      ...offered.map((r) => el('option', { value: r, selected: r === member.role }, r)));
    role.addEventListener('change', () => changeRole(member, role));
    remove = el('button', { type: 'button', class: 'btn btn-danger-outline btn-small', 'data-action': 'remove', 'aria-label': 'Remove ' + member.email }, 'Remove');
    remove.addEventListener('click', () => removeMember(member, remove));
  }
  return el('tr', { 'data-customer-id': member.customer_id },
    el('td', { class: 'name', 'data-label': 'Email' }, member.email),
    el('td', { 'data-label': 'Role' }, role),
    el('td', { class: 'num', 'data-label': 'Joined' }, timeEl(member.joined_at)),
    el('td', { class: 'actions-cell' }, remove));
}

function invitationRow(invitation) {
  let revoke = null;
  if (shell.may('manage_members')) {
    revoke = el('button', { type: 'button', class: 'btn btn-danger-outline btn-small', 'data-action': 'revoke', 'aria-label': 'Revoke the invitation of ' + invitation.email }, 'Revoke');
    revoke.addEventListener('click', () => busy(revoke, 'Revoking…', async () => {
      try {
        await api('DELETE', '/api/v1/invitations/' + invitation.id);
        showAlert($('members-status'), 'success', 'The invitation of ' + invitation.email + ' was revoked.');
      } catch (error) {
        showAlert($('members-status'), 'error', messageOf(error, 'The invitation could not be revoked.'));
      }
      await load();
    }));
  }
  return el('tr', { 'data-invitation-id': invitation.id },
    el('td', { class: 'name', 'data-label': 'Email' }, invitation.email),
    el('td', { 'data-label': 'Role' }, el('span', { class: 'badge' }, invitation.role)),
    el('td', { class: 'num', 'data-label': 'Expires' }, timeEl(invitation.expires_at)),
    el('td', { class: 'actions-cell' }, revoke));
}

async function changeRole(member, select) {
  select.disabled = true;
  try {
    await api('PATCH', '/api/v1/members/' + member.customer_id, { role: select.value });
    showAlert($('members-status'), 'success', member.email + ' is ' + select.value + ' now.');
  } catch (error) {
    showAlert($('members-status'), 'error', messageOf(error, 'The role could not be changed.'));
  }
  await load();
}

async function removeMember(member, button) {
  $('remove-email').textContent = member.email;
  if (!(await confirmDialog($('remove-dialog'), button))) return;
  try {
    await api('DELETE', '/api/v1/members/' + member.customer_id);
    showAlert($('members-status'), 'success', member.email + ' was removed.');
  } catch (error) {
    showAlert($('members-status'), 'error', messageOf(error, 'The member could not be removed.'));
  }
  await load();
}

function wireInvite() {
  const { dialog, form, open } = formDialog('invite');
  $('invite').addEventListener('click', () => {
    open();
    $('invite-email').focus();
  });
  onSubmit(form, $('invite-send'), 'Sending…', async () => {
    const invitation = await api('POST', '/api/v1/invitations', { email: $('invite-email').value, role: $('invite-role').value });
    dialog.close();
    showAlert($('members-status'), 'success', 'An invitation is on its way to ' + invitation.email + '.');
    await load();
  }, { already_member: 'email' });
}

function wireLeave() {
  $('leave').addEventListener('click', async () => {
    if (!(await confirmDialog($('leave-dialog')))) return;
    try {
      await api('DELETE', '/api/v1/members/' + shell.session.customer_id);
      location.replace('/dashboard/account');
    } catch (error) {
      showAlert($('members-status'), 'error', messageOf(error, 'You could not leave the organization.'));
    }
  });
}

function wireTransfer() {
  const { dialog, form, open } = formDialog('transfer');
  $('transfer').addEventListener('click', () => open(() => {
    const others = list.members.filter((m) => m.customer_id !== shell.session.customer_id);
    $('transfer-member').replaceChildren(...others.map((m) => el('option', { value: m.customer_id }, m.email + ' (' + m.role + ')')));
    $('transfer-confirm').disabled = others.length === 0;
  }));
  onSubmit(form, $('transfer-confirm'), 'Transferring…', async () => {
    await api('POST', '/api/v1/organization/transfer', { customer_id: $('transfer-member').value, current_password: $('transfer-password').value });
    dialog.close();
    location.reload();
  }, { reauthentication_failed: 'current_password' });
}

function wireDelete() {
  const { form, open } = formDialog('delete');
  const name = $('delete-confirm-name');
  $('delete-organization').addEventListener('click', () => {
    open(() => {
      $('delete-name').textContent = shell.organization.name;
      $('delete-submit').disabled = true;
    });
    name.focus();
  });
  // the button only works once the name is typed as it is
  name.addEventListener('input', () => {
    $('delete-submit').disabled = name.value.trim() !== shell.organization.name;
  });
  onSubmit(form, $('delete-submit'), 'Deleting…', async () => {
    await api('DELETE', '/api/v1/organization', { name: name.value, current_password: $('delete-password').value });
    location.replace('/dashboard/account');
  }, { reauthentication_failed: 'current_password' });
}

main();
