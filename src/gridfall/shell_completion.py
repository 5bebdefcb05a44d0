"""Tab completion of words with a colon (``standard:1``) in bash and zsh.

Bash splits the words it completes at every character of ``COMP_WORDBREAKS``, which holds ``:``,
so click's own bash script hands ``standard``, ``:`` and ``1`` over as three words, and a
completion of ``standard:1`` would be written after the colon as ``standard:standard:1``.  This
script sends the line itself (``COMP_LINE`` up to the cursor), which Python splits as a shell
would, and trims each answer back to what bash replaces: the text after the last colon.

Bash and zsh put a space after a word completed whole; a word that ends in a colon (a board's
kind, ``standard:``) wants its number next, so both scripts here leave the space out.  Fish
does that by itself, and keeps its words whole: it uses click's script.
"""

from __future__ import annotations

import os
from typing import ClassVar

from click.shell_completion import (BashComplete, CompletionItem, ZshComplete, add_completion_class,
                                    split_arg_string)

# Both scripts read the replies of click's protocol: lines "plain,WORD" (zsh: "plain", WORD, a help or
# "_"), or "file" and "dir" for the shell's own completion of paths.
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
    in_quotes = False

    def get_completion_args(self) -> tuple[list[str], str]:
        line = os.environ.get("COMP_LINE")
        if line is None:  # a script sourced from click's own template: bash's words are all there is
            return super().get_completion_args()
        before = line[:int(os.environ.get("COMP_POINT") or len(line))]
        # One letter added after the cursor makes the word being typed the last one, also when it is
        # still empty (after a space) or inside an open quote; then the letter comes off again.
        words = split_arg_string(before + "x")
        self.typed = words[-1][:-1]
        self.in_quotes = before.count('"') % 2 == 1 or before.count("'") % 2 == 1  # bash breaks no quoted word
        return words[1:-1], self.typed

    def format_completion(self, item: CompletionItem) -> str:
        value = item.value
        breaks = os.environ.get("COMP_WORDBREAKS", ":")
        if item.type == "plain" and ":" in breaks and ":" in self.typed and not self.in_quotes:
            done = self.typed[:self.typed.rindex(":") + 1]  # bash replaces only what follows the last colon
            value = value[len(done):] if value.startswith(done) else value
        return f"{item.type},{value}"


_ZSH_SOURCE = """\
#compdef %(prog_name)s

%(complete_func)s() {
    local -a reply words_helped words_spaced words_open
    local type word help
    (( $+commands[%(prog_name)s] )) || return 1
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
    (( $#words_helped )) && _describe -V unsorted words_helped -U
    (( $#words_spaced )) && compadd -U -V unsorted -a words_spaced
    (( $#words_open )) && compadd -U -V unsorted -S '' -a words_open
    return 0
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
    %(complete_func)s "$@"  # loaded from $fpath: complete now
else
    compdef %(complete_func)s %(prog_name)s  # eval'd or sourced: register
fi
"""


class ZshLeavingColonsOpen(ZshComplete):
    """Click's zsh completion, with no space after a word that ends in a colon."""

    source_template: ClassVar[str] = _ZSH_SOURCE


add_completion_class(BashKeepingColons, "bash")
add_completion_class(ZshLeavingColonsOpen, "zsh")
