/** Organizations and who belongs to them: members, roles, invitations, ownership and deletion. */
@NullMarked
package com.kvportal.account.teams;

import org.jspecify.annotations.NullMarked;
