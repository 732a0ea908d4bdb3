-- The mail outbox: a message is written in the transaction of the change that causes it and sent after commit by
-- whichever instance claims it first (FOR UPDATE SKIP LOCKED). A sent message keeps its headers, not its body (the
-- body may hold a link with a token).
create table mail_outbox (
    id              uuid primary key,
    message_id      text        not null unique,
    recipient       text        not null,
    subject         text        not null,
    text_body       text        not null,
    html_body       text        not null,
    created_at      timestamptz not null default now(),
    attempts        int         not null default 0,
    next_attempt_at timestamptz not null default now(),
    last_error      text,
    sent_at         timestamptz,
    abandoned_at    timestamptz
);
create index mail_outbox_due on mail_outbox (next_attempt_at) where sent_at is null and abandoned_at is null;

-- The mail sandbox's mailbox: what the embedded SMTP server received, shared by every instance on this database.
create table mail_sandbox_messages (
    id          uuid primary key,
    message_id  text        not null,
    recipient   text        not null,
    subject     text        not null,
    text_body   text        not null,
    html_body   text        not null,
    received_at timestamptz not null default now(),
    unique (message_id, recipient)
);
create index mail_sandbox_messages_recipient on mail_sandbox_messages (lower(recipient), received_at desc);
create index mail_sandbox_messages_received on mail_sandbox_messages (received_at desc);
