"""Tab completion that keeps a word whole in bash, zsh and fish: ``standard:1``, ``--board=standard:1``.

Each shell replaces a different part of the word being completed, and click's scripts answer each
as if it replaced the whole word:

* Bash splits the words it completes at every character of ``COMP_WORDBREAKS``, which holds ``:``
  and ``=``, so click's own bash script hands ``standard``, ``:`` and ``1`` over as three words,
  and a completion of ``standard:1`` would be written after the colon as ``standard:standard:1``.
  This script sends the line itself (``COMP_LINE`` up to the cursor), which Python splits as a
  shell would, and trims each answer back to what bash replaces: the text after the word's last
  break (``1`` of ``--board=standard:1``).
* Zsh and fish keep the word whole, ``--algo=nr`` too, while click completes only the value after
  the ``=`` (``nrpa``): zsh then replaced the whole word with the value, losing ``--algo=``, and
  fish, which offers only answers that begin with the word, offered nothing.  Their scripts here
  set the ``--option=`` part aside before they offer click's values or the shell's own paths.

Bash and zsh put a space after a word completed whole; a word that ends in a colon (a board's
kind, ``standard:``) wants its number next, so both scripts here leave the space out.  Fish does
that by itself.
"""

from __future__ import annotations

import os
from typing import ClassVar

from click.shell_completion import (BashComplete, CompletionItem, FishComplete, ZshComplete, add_completion_class,
                                    split_arg_string)

# The three scripts read the replies of click's protocol: lines "plain,WORD" (zsh: "plain", WORD, a help
# or "_"; fish: "plain,WORD<tab>HELP"), or "file" and "dir" for the shell's own completion of paths.
_BASH_SOURCE = """\
%(complete_func)s() {
    local IFS=$'\\n'
    local response completion type value
    response=$(env COMP_LINE="$COMP_LINE" COMP_POINT="$COMP_POINT" COMP_WORDBREAKS="$COMP_WORDBREAKS" \\
COMP_WORDS="${COMP_WORDS[*]}" COMP_CWORD="$COMP_CWORD" %(complete_var)s=bash_complete $1)
    COMPREPLY=()
    for completion in $response; do
        IFS=',' read -r type value <<< "$completion"
        case $type in
            dir) COMPREPLY=(); compopt -o dirnames ;;
            file) COMPREPLY=(); compopt -o default ;;
            plain) COMPREPLY+=("$value") ;;
        esac
    done
    if [[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == *: ]]; then
        compopt -o nospace
    fi
    return 0
}

%(complete_func)s_setup() {
    complete -o nosort -F %(complete_func)s %(prog_name)s
}

%(complete_func)s_setup;
"""


class BashKeepingColons(BashComplete):
    """Click's bash completion, given the whole line instead of bash's words."""

    source_template: ClassVar[str] = _BASH_SOURCE
    typed = ""  # the word under the cursor, colons and all
    quoted: str | None = None  # the part of it inside a quote still open, which bash replaces whole

    def get_completion_args(self) -> tuple[list[str], str]:
        line = os.environ.get("COMP_LINE")
        if line is None:  # a script sourced from click's own template: bash's words are all there is
            return super().get_completion_args()
        before = line[:int(os.environ.get("COMP_POINT") or len(line))]
        # One letter added after the cursor makes the word being typed the last one, also when it is
        # still empty (after a space) or inside an open quote; then the letter comes off again.
        words = split_arg_string(before + "x")
        self.typed = words[-1][:-1]
        at = open_quote_at(before)
        self.quoted = None if at is None else before[at + 1:]
        return words[1:-1], self.typed

    def format_completion(self, item: CompletionItem) -> str:
        value = item.value
        if item.type == "plain":  # "file" and "dir" leave the word to bash's own completion of paths
            value = self._what_bash_replaces(option_written_with(self.typed) + value)
        return f"{item.type},{value}"

    def _what_bash_replaces(self, word: str) -> str:
        """The part of a completed ``word`` that bash replaces: after the typed word's last break
        (``:`` or ``=``), or inside its open quote, where nothing breaks (``--board="standard:1``)."""
        if self.quoted is not None:
            kept = self.typed[:len(self.typed) - len(self.quoted)] if self.typed.endswith(self.quoted) else ""
        else:
            breaks = set(os.environ.get("COMP_WORDBREAKS", "")) - set(" \t\n\"'")  # split_arg_string took the quotes
            kept = self.typed[:max((self.typed.rfind(c) for c in breaks), default=-1) + 1]
        return word[len(kept):] if word.startswith(kept) else word


def open_quote_at(line: str) -> int | None:
    """Where the quote still open at the end of ``line`` begins, as a shell reads it (a backslash
    escapes the next character, except inside single quotes); None if every quote is closed."""
    quote, start, i = "", 0, 0
    while i < len(line):
        c = line[i]
        if c == "\\" and quote != "'":
            i += 1  # the escaped character is no quote
        elif quote == "" and c in "'\"":
            quote, start = c, i
        elif c == quote:
            quote = ""
        i += 1
    return start if quote else None


def option_written_with(word: str) -> str:
    """``--board=`` of ``--board=sta``: the part of a word that click sets aside to complete the value
    after it (as click's ``_resolve_incomplete`` does: a word that begins with ``-`` and holds an
    ``=``, up to the first ``=``); empty for every other word."""
    return word[:word.index("=") + 1] if word.startswith("-") and "=" in word else ""


_ZSH_SOURCE = """\
#compdef %(prog_name)s

%(complete_func)s() {
    local -a reply words_helped words_spaced words_open
    local type word help
    (( $+commands[%(prog_name)s] )) || return 1
    # --board=sta: click completes what follows the "=", so "--board=" moves to the ignored prefix,
    # which compadd and _path_files leave as it is ($words still holds the whole word, for click)
    if [[ $PREFIX == -*=* ]]; then
        IPREFIX+="${PREFIX%%%%=*}="
        PREFIX="${PREFIX#*=}"
    fi
    reply=("${(@f)$(env COMP_WORDS="${words[*]}" COMP_CWORD=$((CURRENT-1)) \
%(complete_var)s=zsh_complete %(prog_name)s)}")
    for type word help in ${reply}; do
        case $type in
            plain)
                if [[ $help != _ ]]; then words_helped+=("$word:$help")
                elif [[ $word == *: ]]; then words_open+=("$word")
                else words_spaced+=("$word"); fi ;;
            dir) _path_files -/ ;;
            file) _path_files -f ;;
        esac
    done
    # -U: the words replace what was typed as they are, and -i keeps the ignored prefix (-U drops it)
    (( $#words_helped )) && _describe -V unsorted words_helped -U -i "$IPREFIX"
    (( $#words_spaced )) && compadd -U -i "$IPREFIX" -V unsorted -a words_spaced
    (( $#words_open )) && compadd -U -i "$IPREFIX" -V unsorted -S '' -a words_open
    return 0
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
    %(complete_func)s "$@"  # loaded from $fpath: complete now
else
    compdef %(complete_func)s %(prog_name)s  # eval'd or sourced: register
fi
"""


class ZshLeavingColonsOpen(ZshComplete):
    """Click's zsh completion, with no space after a word that ends in a colon, and the option of
    ``--board=sta`` kept."""

    source_template: ClassVar[str] = _ZSH_SOURCE


# Fish offers only the answers that begin with the word being completed, the whole of it: the
# --option= part that click sets aside (after an opening quote too) is put back in front of each
# (fish 3's string match prints nothing when there is none: "; or echo" makes it one empty word,
# else $opt$word would be none).
_FISH_SOURCE = """\
function %(complete_func)s;
    set -l word (commandline -t)
    set -l opt (string replace -r -- '^[\\'"]' '' $word | string match -r -- '^-[^=]*='; or echo)
    set -l response (env %(complete_var)s=fish_complete COMP_WORDS=(commandline -cp) \
COMP_CWORD=$word %(prog_name)s);

    for completion in $response;
        set -l metadata (string split -m 1 "," $completion);
        switch $metadata[1]
            case dir
                for path in (__fish_complete_directories $metadata[2]); echo $opt$path; end;
            case file
                for path in (__fish_complete_path $metadata[2]); echo $opt$path; end;
            case plain
                echo $opt$metadata[2];
        end;
    end;
end;

complete --no-files --command %(prog_name)s --arguments "(%(complete_func)s)";
"""


class FishKeepingOptions(FishComplete):
    """Click's fish completion, with the option of ``--board=sta`` kept in front of each answer."""

    source_template: ClassVar[str] = _FISH_SOURCE

    def get_completion_args(self) -> tuple[list[str], str]:
        """The words before the one being completed, and that one unquoted, as the newest click
        reads them: click 8.2 left fish's quote on it, so ``"--board=sta`` was no option."""
        args = split_arg_string(os.environ["COMP_WORDS"])[1:]
        word = os.environ["COMP_CWORD"]
        incomplete = (split_arg_string(word) or [""])[0] if word else ""
        if word and args and args[-1] == incomplete:
            args.pop()  # fish sends the word being completed with the others too (a lone quote as "")
        return args, incomplete


add_completion_class(BashKeepingColons, "bash")
add_completion_class(ZshLeavingColonsOpen, "zsh")
add_completion_class(FishKeepingOptions, "fish")
