package com.kvportal.common.encryption;

/**
 * A text column that holds a secret sealed by {@link SecretBox}, in a table whose primary key is {@code id}. A sealed
 * value is bound to its purpose and its row's id: copied into another row, or into a column of another purpose, it
 * does not open. Two columns may share a purpose (a secret that moves from one to the other by SQL alone).
 *
 * @param table the table, qualified with its schema where it is not {@code public}
 * @param column the column
 * @param purpose what the secret is for, e.g. {@code customers.totp_secret}; part of every seal's associated data
 */
public record SecretColumn(String table, String column, String purpose) {

    /** The purpose of this column as it is stored: this column's own. */
    public static SecretColumn of(String table, String column) {
        return new SecretColumn(table, column, table + "." + column);
    }
}
