import type { MarketEventOf } from '../../events/market';
import type { Decider } from '../decider';
import { DomainError } from '../errors';

type ThreadEvent = MarketEventOf<'ThreadStarted' | 'QuestionAsked' | 'AnswerGiven'>;

export type RecordExchange = {
  type: 'RecordExchange';
  thread: MarketEventOf<'ThreadStarted'>['data'];
  question: MarketEventOf<'QuestionAsked'>['data'];
  answer: MarketEventOf<'AnswerGiven'>['data'];
};

export type ThreadState = { owner: string | null; messages: ReadonlySet<string> };

/** A user's thread: started by their first question; every question is recorded with its answer. */
export const threadDecider: Decider<RecordExchange, ThreadState, ThreadEvent> = {
  initialState: () => ({ owner: null, messages: new Set() }),
  evolve(state, event) {
    if (event.type === 'ThreadStarted') return { ...state, owner: event.data.user_id };
    if (event.type === 'QuestionAsked')
      return { ...state, messages: new Set(state.messages).add(event.data.message_id) };
    return state;
  },
  decide({ thread, question, answer }, state) {
    if (state.owner !== null && state.owner !== thread.user_id) {
      throw new DomainError('validation_error', 'This thread belongs to another user');
    }
    if (state.messages.has(question.message_id)) return [];
    return [
      ...(state.owner === null ? [{ type: 'ThreadStarted' as const, data: thread }] : []),
      { type: 'QuestionAsked', data: question },
      { type: 'AnswerGiven', data: answer },
    ];
  },
};
