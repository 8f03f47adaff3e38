import { limitedValidation } from "../input/input-limit.js";
import type { ChoiceRequest, ConfirmRequest, InputRequest, PickItem, Prompter } from "../input/prompter.js";

export type ScriptedAnswer = { pick: string } | { input: string } | { confirm: boolean } | { choose: string } | { cancel: true };

/**
 * Answers questions from a script, for the test-electron suite (extension mode Test only):
 * a pick chooses the first item whose label contains the text; an input runs the box's own
 * validation and fails on an error, as a person could not press Enter. With no answer left
 * it asks through the real prompter.
 */
export class ScriptedPrompter implements Prompter {
  readonly #answers: ScriptedAnswer[] = [];
  readonly asked: string[] = [];

  constructor(private readonly fallback: Prompter) {}

  script(...answers: ScriptedAnswer[]): void {
    this.#answers.push(...answers);
  }

  get remaining(): number {
    return this.#answers.length;
  }

  #next(question: string): ScriptedAnswer | undefined {
    this.asked.push(question);
    return this.#answers.shift();
  }

  async pick<T>(title: string, items: readonly PickItem<T>[], placeHolder?: string): Promise<T | undefined> {
    const answer = this.#next(`pick: ${title}`);
    if (answer === undefined) return this.fallback.pick(title, items, placeHolder);
    if ("cancel" in answer) return undefined;
    if (!("pick" in answer)) throw new Error(`scripted answer ${JSON.stringify(answer)} given to the pick "${title}"`);
    const item = items.find((candidate) => candidate.label.includes(answer.pick));
    if (!item) throw new Error(`no item of "${title}" contains ${JSON.stringify(answer.pick)}: ${items.map((candidate) => candidate.label).join(" | ")}`);
    return item.value;
  }

  async input(request: InputRequest): Promise<string | undefined> {
    const answer = this.#next(`input: ${request.title}`);
    if (answer === undefined) return this.fallback.input(request);
    if ("cancel" in answer) return undefined;
    if (!("input" in answer)) throw new Error(`scripted answer ${JSON.stringify(answer)} given to the input "${request.title}"`);
    const verdict = limitedValidation(request)(answer.input);
    if (typeof verdict === "string") throw new Error(`input "${request.title}" refuses ${JSON.stringify(answer.input)}: ${verdict}`);
    return answer.input;
  }

  async confirm(request: ConfirmRequest): Promise<boolean> {
    const answer = this.#next(`confirm: ${request.message}`);
    if (answer === undefined) return this.fallback.confirm(request);
    if ("cancel" in answer) return false;
    if (!("confirm" in answer)) throw new Error(`scripted answer ${JSON.stringify(answer)} given to the confirmation "${request.message}"`);
    return answer.confirm;
  }

  async choose(request: ChoiceRequest): Promise<string | undefined> {
    const answer = this.#next(`choose: ${request.message}`);
    if (answer === undefined) return this.fallback.choose(request);
    if ("cancel" in answer) return undefined;
    if (!("choose" in answer) || !request.actions.includes(answer.choose))
      throw new Error(`scripted answer ${JSON.stringify(answer)} given to the choice "${request.message}" (${request.actions.join(" | ")})`);
    return answer.choose;
  }
}
