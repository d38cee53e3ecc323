"""Bots that play typhoon-edu: random (easy), greedy (medium)."""

from .bots import Bot, GreedyBot, RandomBot
from .play import GameResult, play_game

__all__ = ["Bot", "GameResult", "GreedyBot", "RandomBot", "play_game"]
