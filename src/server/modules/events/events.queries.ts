// What other modules may read of the owner's log. Writing it is the write path's job alone.
export {
  countEventsAfter,
  hasClientHistory,
  latestEventId,
  readAllEvents,
  readClientHistory,
} from './events.repository.ts';
