/* fairdeal-tool link: the table controller's side of the link
 * (docs/LINK.md "The controller: fairdeal-tool link"). */
#ifndef FAIRDEAL_LINK_TOOL_H
#define FAIRDEAL_LINK_TOOL_H

/* fairdeal-tool link {--psk HEX | --secret HEX | --test-secret} [--state FILE] [--tty PATH] [-- COMMAND ...]:
 * one session with a dealer, command lines from stdin, reply lines to
 * stdout; exit 0, 1 (refused: no WELCOME, a rollback, a lost reply), 2 (usage). */
int fd_tool_link(int argc, char **argv);

#endif
