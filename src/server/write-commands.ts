// Every module that defines commands of the write path (`command` in modules/events/write-path.ts).
// SQLite's writer thread loads this file to run them there by name; a command in a module missing
// here fails on SQLite with "knows no command named ...".
import './modules/clients/clients.commands.ts';
import './modules/settings/settings.commands.ts';
import './modules/transfer/import.commands.ts';
import './modules/transfer/restore.commands.ts';
